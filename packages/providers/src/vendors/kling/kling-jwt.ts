import { createHmac } from 'node:crypto';

/**
 * The bearer token a Kling-style vendor wants: an HS256 JWT issued by the access key, signed with the
 * secret key, valid for half an hour (from 5 s ago, for clock skew). A channel key without a colon is
 * taken as a ready token (a proxy's own key).
 */
export function klingBearer(apiKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const colon = apiKey.indexOf(':');
  if (colon < 0) return apiKey;
  const accessKey = apiKey.slice(0, colon);
  const secretKey = apiKey.slice(colon + 1);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iss: accessKey, exp: nowSeconds + 1800, nbf: nowSeconds - 5 })}`;
  return `${unsigned}.${createHmac('sha256', secretKey).update(unsigned).digest('base64url')}`;
}
