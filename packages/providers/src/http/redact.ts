// Keeps upstream secrets out of anything a client may read: known key values, bearer tokens, key-shaped
// strings and credentials embedded in URLs.

const BEARER = /Bearer\s+[^\s"',]+/gi;
const URL_CREDENTIALS = /(\w+:\/\/)[^/\s:@]+:[^/\s@]+@/g;
const KEY_LIKE = /\b(sk|rk)-[A-Za-z0-9*_-]{6,}/g;

export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(BEARER, 'Bearer [redacted]').replace(URL_CREDENTIALS, '$1[redacted]@').replace(KEY_LIKE, '[redacted]');
}

/** Truncates long upstream messages (HTML error pages and the like). */
export function clip(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
