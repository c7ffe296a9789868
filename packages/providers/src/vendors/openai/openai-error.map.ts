// An OpenAI-protocol upstream's non-2xx answer ({error:{message, param, code}}, or a bare string, or
// not JSON at all) → GatewayError, through the one upstream mapping every vendor shares.
import type { GatewayError } from '@gateway/contracts';
import { upstreamError, type UpstreamErrorOptions } from '../../ir/upstream-error';
import { OpenaiErrorBody } from './openai-response.schema';

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

export function fromUpstreamError(status: number, bodyText: string, options: UpstreamErrorOptions = {}): GatewayError {
  const { message, param } = upstreamMessage(bodyText);
  return upstreamError(status, message, options, param);
}
