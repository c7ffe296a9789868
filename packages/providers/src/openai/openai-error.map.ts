// Turns an upstream's non-2xx answer into a GatewayError. The client's key was fine by the time we called
// upstream, so an upstream 401/403 (the gateway's own upstream key is wrong) becomes a 502 upstream_error,
// never a 401 that would make the client doubt its key. Other statuses pass through with the upstream's
// message, scrubbed of anything secret.
import { GatewayError } from '@gateway/contracts';
import { clip, redactSecrets } from '../http/redact';
import { OpenaiErrorBody } from './openai-response.schema';

export interface UpstreamErrorOptions {
  /** Response headers, for retry-after. */
  headers?: Record<string, string | string[] | undefined>;
  /** Values that must never appear in the message (the channel's key). */
  secrets?: readonly (string | null | undefined)[];
}

function upstreamMessage(bodyText: string): { message: string; param: string | null } {
  try {
    const parsed = OpenaiErrorBody.safeParse(JSON.parse(bodyText));
    if (parsed.success) {
      const error = parsed.data.error;
      if (typeof error === 'string') return { message: error, param: null };
      return { message: error.message ?? String(error.code ?? error.type ?? ''), param: error.param ?? null };
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return { message: bodyText.trim(), param: null };
}

function retryAfter(headers: UpstreamErrorOptions['headers']): number | null {
  const raw = headers?.['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}

export function fromUpstreamError(status: number, bodyText: string, options: UpstreamErrorOptions = {}): GatewayError {
  const { message: raw, param } = upstreamMessage(bodyText);
  const message = clip(redactSecrets(raw, options.secrets ?? [])) || `Upstream answered HTTP ${status}.`;
  if (status === 401 || status === 403) {
    return new GatewayError('upstream_error', `The upstream provider refused the gateway's credentials (HTTP ${status}): ${message}`);
  }
  if (status === 400 || status === 422) return new GatewayError('invalid_request', message, param, status);
  if (status === 413) return new GatewayError('payload_too_large', message, param, status);
  if (status === 429) return new GatewayError('rate_limited', message, null, 429, retryAfter(options.headers));
  if (status === 504) return new GatewayError('upstream_timeout', message, null, 504);
  return new GatewayError('upstream_error', message, param, status);
}
