// Upstream failures of every protocol end in one mapping (the openai adapter's): status → code, upstream
// 401/403 → upstream_error, retry-after kept, secrets scrubbed. Other protocols hand it their message.
import { GatewayError } from '@gateway/contracts';
import { fromUpstreamError, type UpstreamErrorOptions } from '../openai/openai-error.map';

export function upstreamError(status: number, message: string, options: UpstreamErrorOptions = {}): GatewayError {
  return fromUpstreamError(status, JSON.stringify({ error: { message } }), options);
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
