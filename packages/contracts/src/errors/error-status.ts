import type { ErrorCode } from './error-code';
import type { GatewayError } from './gateway-error';

/** The HTTP status of each domain error code: the edge's replies (every family but music) and batch result lines. */
export const STATUS_OF_CODE: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  authentication_failed: 401,
  permission_denied: 403,
  not_found: 404,
  model_not_found: 404,
  payload_too_large: 413,
  rate_limited: 429,
  insufficient_quota: 429,
  budget_exceeded: 429,
  upstream_error: 502,
  upstream_timeout: 504,
  unavailable: 503,
  internal: 500,
};

export function statusForCode(code: ErrorCode): number {
  return STATUS_OF_CODE[code];
}

/** An upstream's own status passes through; otherwise the code decides. */
export function httpStatusOf(error: Pick<GatewayError, 'code' | 'upstreamStatus'>): number {
  return error.upstreamStatus ?? statusForCode(error.code);
}
