// Anthropic failures ({type:'error', error:{type, message}}) → GatewayError with the upstream's status.
import { GatewayError, MsgcErrorBody } from '@gateway/contracts';
import { upstreamError, type UpstreamErrorOptions } from '../../ir/upstream-error';

const STATUS_OF_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

/** An `error` event inside a stream carries no HTTP status: its type says which it would have been. */
export function anthropicErrorFromDetail(detail: { type: string; message: string }): GatewayError {
  return upstreamError(STATUS_OF_TYPE[detail.type] ?? 500, detail.message);
}

/** `bodyText` is the upstream's error body; anything unreadable still yields a clear error. */
export function fromAnthropicError(status: number, bodyText: string, options: UpstreamErrorOptions = {}): GatewayError {
  let value: unknown = null;
  try {
    value = JSON.parse(bodyText);
  } catch {
    // not JSON (a proxy's HTML page): the raw text is the message
  }
  const parsed = MsgcErrorBody.safeParse(value);
  const message = parsed.success ? parsed.data.error.message : bodyText.trim();
  return upstreamError(status, message, options);
}
