import type { ErrorCode, GatewayError } from '@gateway/contracts';

/** The HTTP status of each domain error code, shared by every family except music (see music-dialect). */
export function statusForCode(code: ErrorCode): number {
  switch (code) {
    case 'invalid_request':
      return 400;
    case 'authentication_failed':
      return 401;
    case 'permission_denied':
      return 403;
    case 'not_found':
    case 'model_not_found':
      return 404;
    case 'payload_too_large':
      return 413;
    case 'rate_limited':
    case 'insufficient_quota':
      return 429;
    case 'upstream_error':
      return 502;
    case 'upstream_timeout':
      return 504;
    case 'unavailable':
      return 503;
    case 'internal':
      return 500;
  }
}

/** An upstream's own status passes through; otherwise the code decides. */
export function httpStatusOf(error: GatewayError): number {
  return error.upstreamStatus ?? statusForCode(error.code);
}
