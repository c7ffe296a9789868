import { ErrorBody, ErrorCode } from './error-code';

/** The one domain error class: a code, a message naming the field at fault, and where known the field itself. */
export class GatewayError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param: string | null = null,
    readonly upstreamStatus: number | null = null,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'GatewayError';
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      message: this.message,
      param: this.param,
      upstreamStatus: this.upstreamStatus,
      retryAfterSeconds: this.retryAfterSeconds,
    };
  }

  static fromBody(body: ErrorBody): GatewayError {
    return new GatewayError(body.code, body.message, body.param ?? null, body.upstreamStatus ?? null, body.retryAfterSeconds ?? null);
  }

  static invalid(message: string, param: string | null = null): GatewayError {
    return new GatewayError('invalid_request', message, param);
  }

  static notFound(message: string, param: string | null = null): GatewayError {
    return new GatewayError('not_found', message, param);
  }
}
