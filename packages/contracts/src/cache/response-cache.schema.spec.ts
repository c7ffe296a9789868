import { effectiveCache } from './cache-admin.schema';
import { CACHE_HEADER, CACHE_MAX_TTL_SECONDS, CacheSettings, parseCacheDirective, requestCacheOf } from './response-cache.schema';

describe('the x-gateway-cache directive', () => {
  it('reads and stores when the header is absent', () => {
    expect(parseCacheDirective(undefined)).toEqual({ read: true, store: true });
  });

  it('reads the three directives, in any case and with spaces around', () => {
    expect(parseCacheDirective('no-store')).toEqual({ read: false, store: false });
    expect(parseCacheDirective(' No-Cache ')).toEqual({ read: false, store: true });
    expect(parseCacheDirective('ttl=60')).toEqual({ read: true, store: true, ttlSeconds: 60 });
    expect(parseCacheDirective(`ttl=${CACHE_MAX_TTL_SECONDS}`).ttlSeconds).toBe(CACHE_MAX_TTL_SECONDS);
  });

  it.each(['', 'store', 'ttl=0', 'ttl=-1', 'ttl=1.5', `ttl=${CACHE_MAX_TTL_SECONDS + 1}`, 'ttl=99999999999', 'no-store, no-cache'])(
    'refuses %j naming the header',
    (value) => {
      expect(() => parseCacheDirective(value)).toThrow(expect.objectContaining({ param: CACHE_HEADER, message: expect.stringContaining(CACHE_HEADER) }));
    },
  );

  it('refuses the header sent twice', () => {
    expect(() => parseCacheDirective(['no-store', 'no-store'])).toThrow(expect.objectContaining({ param: CACHE_HEADER }));
  });
});

describe('cache settings', () => {
  it('are off unless a tenant turns them on, for an hour by default', () => {
    expect(CacheSettings.parse({})).toEqual({ mode: 'off', ttlSeconds: 3600, sampled: false });
  });

  it('refuse unknown modes, fields and a ttl past the maximum', () => {
    expect(CacheSettings.safeParse({ mode: 'write_only' }).success).toBe(false);
    expect(CacheSettings.safeParse({ mode: 'read_write', ttl: 5 }).success).toBe(false);
    expect(CacheSettings.safeParse({ ttlSeconds: CACHE_MAX_TTL_SECONDS + 1 }).success).toBe(false);
  });
});

describe('a key narrowing its tenant', () => {
  const on = CacheSettings.parse({ mode: 'read_write', ttlSeconds: 600, sampled: true });

  it("takes the tenant's settings when the key has none, and off when neither has", () => {
    expect(effectiveCache(on, null)).toEqual(on);
    expect(effectiveCache(null, null).mode).toBe('off');
  });

  it('never widens: the lesser mode, the shorter ttl, sampled only when both allow', () => {
    expect(effectiveCache(on, CacheSettings.parse({ mode: 'read_only', ttlSeconds: 60 }))).toEqual({ mode: 'read_only', ttlSeconds: 60, sampled: false });
    expect(effectiveCache(CacheSettings.parse({ mode: 'read_only', ttlSeconds: 60 }), on)).toEqual({ mode: 'read_only', ttlSeconds: 60, sampled: false });
    expect(effectiveCache(null, on).mode).toBe('off');
  });
});

describe("a request's cache", () => {
  const readWrite = CacheSettings.parse({ mode: 'read_write', ttlSeconds: 600 });

  it('is absent when the key has no cache or it is off', () => {
    expect(requestCacheOf(undefined, parseCacheDirective(undefined))).toBeUndefined();
    expect(requestCacheOf(CacheSettings.parse({}), parseCacheDirective(undefined))).toBeUndefined();
  });

  it('reads and stores on read_write, only reads on read_only', () => {
    expect(requestCacheOf(readWrite, parseCacheDirective(undefined))).toEqual({ read: true, store: true, ttlSeconds: 600, sampled: false });
    expect(requestCacheOf({ ...readWrite, mode: 'read_only' }, parseCacheDirective(undefined))).toMatchObject({ read: true, store: false });
  });

  it('follows the directive, whose ttl only shortens', () => {
    expect(requestCacheOf(readWrite, parseCacheDirective('no-store'))).toMatchObject({ read: false, store: false });
    expect(requestCacheOf(readWrite, parseCacheDirective('no-cache'))).toMatchObject({ read: false, store: true });
    expect(requestCacheOf(readWrite, parseCacheDirective('ttl=60'))?.ttlSeconds).toBe(60);
    expect(requestCacheOf(readWrite, parseCacheDirective('ttl=6000'))?.ttlSeconds).toBe(600);
  });
});
