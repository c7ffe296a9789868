// Gemini failures ({error:{code, message, status}}) → GatewayError with the upstream's status.
import { GatewayError, GencErrorBody } from '@gateway/contracts';
import { upstreamError, type UpstreamErrorOptions } from '../../ir/upstream-error';

/** `bodyText` is the upstream's error body (a list of errors on some endpoints). */
export function fromGeminiError(status: number, bodyText: string, options: UpstreamErrorOptions = {}): GatewayError {
  let value: unknown = null;
  try {
    value = JSON.parse(bodyText);
  } catch {
    // not JSON (a proxy's HTML page): the raw text is the message
  }
  if (Array.isArray(value)) value = value[0];
  const parsed = GencErrorBody.safeParse(value);
  const message = parsed.success ? parsed.data.error.message : bodyText.trim();
  return upstreamError(status, message, options);
}
