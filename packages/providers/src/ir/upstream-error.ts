// Upstream failures of every protocol end in one mapping: status → code, upstream 401/403 →
// upstream_error, retry-after kept, secrets scrubbed. Each vendor reads its own error body and hands
// the message (and the field it names, where it names one) to it.
import { GatewayError } from '@gateway/contracts';
import { clip, redactSecrets } from '../http/redact';

export interface UpstreamErrorOptions {
  /** Response headers, for retry-after. */
  headers?: Record<string, string | string[] | undefined>;
  /** Values that must never appear in the message (the channel's key). */
  secrets?: readonly (string | null | undefined)[];
  /** The provider called, named when it refuses the gateway's credentials so an operator knows whose to mend. */
  provider?: string;
}

/** What a vendor's error transform is: the upstream's status and error body in, one GatewayError out. */
export type UpstreamErrorTransform = (status: number, bodyText: string, options?: UpstreamErrorOptions) => GatewayError;

function retryAfter(headers: UpstreamErrorOptions['headers']): number | null {
  const raw = headers?.['retry-after'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : null;
}

/**
 * The client's key was fine by the time we called upstream, so an upstream 401/403 (the gateway's own
 * upstream key is wrong) becomes a 502 upstream_error, never a 401 that would make the client doubt its
 * key. Other statuses pass through with the upstream's message, scrubbed of anything secret.
 */
export function upstreamError(status: number, message: string, options: UpstreamErrorOptions = {}, param: string | null = null): GatewayError {
  const text = clip(redactSecrets(message, options.secrets ?? [])) || `Upstream answered HTTP ${status}.`;
  if (status === 401 || status === 403) {
    const who = options.provider ? `The provider "${options.provider}"` : 'The upstream provider';
    return new GatewayError('upstream_error', `${who} refused the gateway's credentials (HTTP ${status}): ${text}`);
  }
  if (status === 400 || status === 422) return new GatewayError('invalid_request', text, param, status);
  if (status === 413) return new GatewayError('payload_too_large', text, param, status);
  if (status === 429) return new GatewayError('rate_limited', text, null, 429, retryAfter(options.headers));
  if (status === 504) return new GatewayError('upstream_timeout', text, null, 504);
  return new GatewayError('upstream_error', text, param, status);
}

/** Runs an upstream-answer parse; a failure is the upstream's fault (502), never the client's. */
export function parseUpstreamBody<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const why = error instanceof GatewayError ? error.message : 'invalid JSON';
    throw new GatewayError('upstream_error', `the upstream sent an answer this gateway cannot read (${why})`, null, 502);
  }
}
