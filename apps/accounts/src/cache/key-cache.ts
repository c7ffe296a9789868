import { CacheSettings, effectiveCache } from '@gateway/contracts';

/** A stored settings column: what parses, or nothing (a column another version wrote is read as unset). */
export const storedCache = (value: unknown): CacheSettings | null =>
  CacheSettings.nullable()
    .catch(null)
    .parse(value ?? null);

/** The cache a request with this key gets; undefined when that is off, so keys without a cache carry nothing. */
export function keyCache(key: { cache: unknown; tenant: { cache: unknown } }): CacheSettings | undefined {
  const effective = effectiveCache(storedCache(key.tenant.cache), storedCache(key.cache));
  return effective.mode === 'off' ? undefined : effective;
}
