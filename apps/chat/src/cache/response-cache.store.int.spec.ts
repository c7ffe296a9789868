import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ResponseCacheStore } from './response-cache.store';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the response cache store (real Redis)', () => {
  const redis = new Redis(REDIS_URL);
  const namespace = `rcspec${randomBytes(4).toString('hex')}`;
  const store = new ResponseCacheStore(redis, namespace, { tenantMaxBytes: 1000, entryMaxBytes: 400 });
  const bytes = (n: number, fill = 'a') => Buffer.from(fill.repeat(n));

  afterAll(async () => {
    const keys = await redis.keys(`{rc:${namespace}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('gives back the bytes it stored, to the tenant that stored them only', async () => {
    const value = Buffer.from([0, 255, 10, 13, 0x7b]);
    expect(await store.put('t1', 'h1', value, 60)).toEqual({ stored: true, tenantBytes: 5, evicted: 0 });
    expect(await store.get('t1', 'h1')).toEqual(value);
    expect(await store.get('t2', 'h1')).toBeNull();
    expect(await store.get('t1', 'h2')).toBeNull();
  });

  it('keeps a tenant under its cap by evicting the least recently read, never touching another tenant', async () => {
    const now = Date.now();
    await store.put('cap', 'a', bytes(300), 60, now);
    await store.put('cap', 'b', bytes(300), 60, now + 1);
    await store.put('cap', 'c', bytes(300), 60, now + 2);
    await store.put('other', 'a', bytes(300), 60, now);
    expect(await store.get('cap', 'a', now + 3)).not.toBeNull();
    const put = await store.put('cap', 'd', bytes(300), 60, now + 4);
    expect(put).toEqual({ stored: true, tenantBytes: 900, evicted: 1 });
    expect(await store.get('cap', 'b')).toBeNull();
    expect(await store.get('cap', 'a')).not.toBeNull();
    expect(await store.get('other', 'a')).not.toBeNull();
    expect(await store.tenantBytes('cap')).toBe(900);
  });

  it('does not store an answer over the entry bound', async () => {
    expect(await store.put('big', 'x', bytes(401), 60)).toEqual({ stored: false, reason: 'too_large' });
    expect(await store.get('big', 'x')).toBeNull();
    expect(await store.tenantBytes('big')).toBe(0);
  });

  it('counts a rewritten entry once, and forgets expired entries when it next writes', async () => {
    const now = Date.now();
    await store.put('ttl', 'a', bytes(100), 60, now);
    await store.put('ttl', 'a', bytes(150), 60, now);
    expect(await store.tenantBytes('ttl')).toBe(150);
    await store.put('ttl', 'short', bytes(50), 1, now);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await store.get('ttl', 'short')).toBeNull();
    await store.put('ttl', 'b', bytes(10), 60, Date.now());
    expect(await store.tenantBytes('ttl')).toBe(160);
  });

  it('purges every entry of one tenant, in batches, and leaves the others', async () => {
    const wide = new ResponseCacheStore(redis, namespace, { tenantMaxBytes: 1_000_000, entryMaxBytes: 100 });
    for (let i = 0; i < 1200; i++) await wide.put('purged', `h${i}`, bytes(10), 60);
    await wide.put('kept', 'h0', bytes(10), 60);
    expect(await wide.purge('purged')).toBe(1200);
    expect(await wide.get('purged', 'h5')).toBeNull();
    expect(await wide.tenantBytes('purged')).toBe(0);
    expect(await redis.keys(`{rc:${namespace}:purged}*`)).toEqual([]);
    expect(await wide.get('kept', 'h0')).not.toBeNull();
  });
});
