import { GatewayError, type AuthScheme } from '@gateway/contracts';

export const MSGC_VERSION = '2023-06-01';

type Headers = Record<string, string | string[] | undefined>;

function single(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

function bearerKey(headers: Headers): string {
  const authorization = single(headers.authorization);
  if (authorization === undefined) {
    if (single(headers['x-api-key']) !== undefined) {
      throw new GatewayError(
        'authentication_failed',
        'This route does not accept the x-api-key header: use the Authorization: Bearer header with your API key.',
      );
    }
    throw new GatewayError('authentication_failed', 'Missing API key: use the Authorization: Bearer header with your API key.');
  }
  const match = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!match) throw new GatewayError('authentication_failed', 'Malformed Authorization header: use the Authorization: Bearer header with your API key.');
  return match[1]!;
}

function msgcKey(headers: Headers): string {
  const key = single(headers['x-api-key']);
  if (key !== undefined) return key;
  if (single(headers.authorization) !== undefined) {
    throw new GatewayError('authentication_failed', 'This route does not accept the Authorization: Bearer header: use the x-api-key header with your API key.');
  }
  throw new GatewayError('authentication_failed', 'Missing API key: use the x-api-key header with your API key.');
}

/** The msgc version header, checked once the key is known good: as the vendor does, a bad or missing key is answered first. */
export function checkMsgcVersion(headers: Headers): void {
  const version = single(headers['msgc-version']);
  if (version === undefined) throw GatewayError.invalid(`Missing required header: msgc-version (use ${MSGC_VERSION}).`, 'msgc-version');
  if (version !== MSGC_VERSION) throw GatewayError.invalid(`Unsupported msgc-version "${version}": use ${MSGC_VERSION}.`, 'msgc-version');
}

/** Headers that carry a key or pick its scheme: a second copy is ambiguous, and Node would keep one silently. */
const SINGLE_HEADERS = ['authorization', 'x-api-key', 'msgc-version'];

/** Refuses a request that repeats a key header (`rawHeaders` alternates names and values, as Node gives them). */
export function rejectRepeatedKeyHeaders(rawHeaders: readonly string[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!SINGLE_HEADERS.includes(name)) continue;
    if (seen.has(name)) throw GatewayError.invalid(`The ${name} header appears more than once: send it once.`, name);
    seen.add(name);
  }
}

/**
 * The API key a request carries under its route's scheme (spec section 5). Vendor SDK headers
 * such as `anthropic-version` and `x-goog-api-key` are ignored on purpose: the contract is these headers only.
 * On msgc routes the version header is checked after the key (`checkMsgcVersion`).
 */
export function extractApiKey(scheme: AuthScheme, headers: Headers): string {
  return scheme === 'msgc' ? msgcKey(headers) : bearerKey(headers);
}
