import { GatewayError, type RouteDef } from '@gateway/contracts';

type Headers = Record<string, string | string[] | undefined>;

/** Whether the request carries a body at all (a declared length above 0, or a chunked one). */
function hasBody(headers: Headers): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/** `application/json`, parameters such as a charset ignored. */
export function isJsonMediaType(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/**
 * A JSON route told another content type would otherwise parse it as text and answer "expected object":
 * checked from the headers, before any of the body is read, naming the header at fault.
 */
export function assertJsonContentType(route: RouteDef, headers: Headers): void {
  if (route.body === undefined || route.multipart || !hasBody(headers)) return;
  const given = headers['content-type'];
  const contentType = Array.isArray(given) ? given[0] : given;
  if (contentType !== undefined && isJsonMediaType(contentType)) return;
  const got = contentType === undefined ? 'no Content-Type header' : `Content-Type ${JSON.stringify(contentType.slice(0, 100))}`;
  throw new GatewayError('invalid_request', `Expected Content-Type application/json for this route's body, got ${got}.`, 'content-type', 415);
}

/**
 * The gateway reads bodies as sent; a compressed one would otherwise be parsed as if it were plain (and a
 * plain one labelled compressed served as if it had been inflated). Refused from the headers, naming it.
 */
export function assertIdentityEncoding(route: RouteDef, headers: Headers): void {
  if (route.body === undefined && !route.multipart) return;
  const given = headers['content-encoding'];
  const encoding = (Array.isArray(given) ? given.join(',') : (given ?? '')).trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return;
  throw new GatewayError(
    'invalid_request',
    `Content-Encoding ${JSON.stringify(encoding.slice(0, 50))} is not supported: send the body uncompressed.`,
    'content-encoding',
    415,
  );
}
