// Bedrock failures (`x-amzn-errortype` naming the exception, `{"message"}` as the body, or an exception
// message inside an event stream) → GatewayError. Throttling, model-not-ready and unavailable keep their
// 429 / 503, so failover tries the next channel; a validation error is the client's 400.
import type { GatewayError } from '@gateway/contracts';
import { upstreamError, type UpstreamErrorOptions } from '../../ir/upstream-error';
import { BedrockErrorBody } from './bedrock-answer.schema';

/** The status each exception stands for, by its name (`ThrottlingException`) or stream member (`throttlingException`). */
const STATUS_OF_EXCEPTION: Record<string, number> = {
  validationexception: 400,
  accessdeniedexception: 403,
  unrecognizedclientexception: 403,
  invalidsignatureexception: 403,
  missingauthenticationtokenexception: 403,
  resourcenotfoundexception: 404,
  modeltimeoutexception: 408,
  modelerrorexception: 424,
  throttlingexception: 429,
  modelnotreadyexception: 429,
  servicequotaexceededexception: 429,
  internalserverexception: 500,
  modelstreamerrorexception: 502,
  serviceunavailableexception: 503,
};

/** `ThrottlingException:http://internal.amazon.com/coral/…` → `ThrottlingException`. */
export function exceptionNameOf(errorType: string | undefined): string | null {
  const name = errorType?.split(':')[0]?.trim();
  return name ? name : null;
}

function header(options: UpstreamErrorOptions, name: string): string | undefined {
  const value = options.headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

function messageOf(bodyText: string): string {
  let value: unknown = null;
  try {
    value = JSON.parse(bodyText);
  } catch {
    // not JSON (a proxy's HTML page): the raw text is the message
  }
  const parsed = BedrockErrorBody.safeParse(value);
  return (parsed.success ? (parsed.data.message ?? parsed.data.Message) : undefined) ?? bodyText.trim();
}

/** The status an exception stands for, or `fallback` for one this gateway does not know. */
export function statusOfException(name: string | null, fallback: number): number {
  return (name && STATUS_OF_EXCEPTION[name.toLowerCase()]) || fallback;
}

export function fromBedrockError(status: number, bodyText: string, options: UpstreamErrorOptions = {}): GatewayError {
  const name = exceptionNameOf(header(options, 'x-amzn-errortype'));
  const message = messageOf(bodyText);
  // Bedrock answers a spent quota with a 400; it is a rate limit all the same.
  const effective = name?.toLowerCase() === 'servicequotaexceededexception' ? 429 : status;
  return upstreamError(effective, name ? `${name}: ${message}` : message, options);
}

/** An exception message inside an event stream: no HTTP status, its type says which it would have been. */
export function bedrockStreamException(exceptionType: string, message: string): GatewayError {
  return upstreamError(statusOfException(exceptionType, 500), `${exceptionType}: ${message}`);
}
