import type { Redis } from 'ioredis';
import { GET_SCRIPT, PURGE_SCRIPT, PUT_SCRIPT } from './response-cache.scripts';

export interface ResponseCacheLimits {
  /** What one tenant's entries may hold in all; the least recently read go first. */
  tenantMaxBytes: number;
  /** An answer larger than this is not stored. */
  entryMaxBytes: number;
}

export type PutOutcome = { stored: true; tenantBytes: number; evicted: number } | { stored: false; reason: 'too_large' };

interface CacheCommands {
  responseCachePut(...args: (string | number | Buffer)[]): Promise<[number, number]>;
  /** ioredis defines the Buffer-answering twin of every command. */
  responseCacheGetBuffer(...args: (string | number)[]): Promise<Buffer | null>;
  responseCachePurge(...args: (string | number)[]): Promise<number>;
}

const PURGE_BATCH = 500;

/**
 * Cached answers in Redis, one namespace per deployment and one cluster slot per tenant: each entry
 * expires on its own, and a tenant's books (last read, expiry, size, total) keep it under its cap.
 */
export class ResponseCacheStore {
  private readonly redis: Redis & CacheCommands;

  constructor(
    redis: Redis,
    private readonly namespace: string,
    readonly limits: ResponseCacheLimits,
  ) {
    this.redis = redis as Redis & CacheCommands;
    if (!('responseCachePut' in redis)) {
      redis.defineCommand('responseCachePut', { numberOfKeys: 5, lua: PUT_SCRIPT });
      redis.defineCommand('responseCacheGet', { numberOfKeys: 2, lua: GET_SCRIPT });
      redis.defineCommand('responseCachePurge', { numberOfKeys: 4, lua: PURGE_SCRIPT });
    }
  }

  /** NATS_PREFIX "run42." → namespace "run42"; "" → "default". */
  static namespaceOf(natsPrefix: string): string {
    return natsPrefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'default';
  }

  /** Whether an answer of this many bytes may be stored at all. */
  fits(bytes: number): boolean {
    return bytes <= this.limits.entryMaxBytes && bytes <= this.limits.tenantMaxBytes;
  }

  async get(tenantId: string, hash: string, now = Date.now()): Promise<Buffer | null> {
    const keys = this.keys(tenantId);
    return this.redis.responseCacheGetBuffer(keys.entry(hash), keys.lru, hash, now);
  }

  async put(tenantId: string, hash: string, value: Buffer, ttlSeconds: number, now = Date.now()): Promise<PutOutcome> {
    if (!this.fits(value.length)) return { stored: false, reason: 'too_large' };
    const keys = this.keys(tenantId);
    const [tenantBytes, evicted] = await this.redis.responseCachePut(
      keys.entry(hash),
      keys.lru,
      keys.expiries,
      keys.sizes,
      keys.total,
      hash,
      value,
      ttlSeconds * 1000,
      now,
      this.limits.tenantMaxBytes,
      keys.entryPrefix,
    );
    return { stored: true, tenantBytes: Number(tenantBytes), evicted: Number(evicted) };
  }

  /** Marks a tenant's entries read at the given times, for ones served without reading them here. */
  async touchMany(tenantId: string, readAt: ReadonlyMap<string, number>): Promise<void> {
    if (readAt.size === 0) return;
    await this.redis.zadd(this.keys(tenantId).lru, 'XX', ...[...readAt].flatMap(([hash, at]) => [at, hash]));
  }

  /** Every live entry of every tenant of this namespace, with its expiry: what a process's index starts from. */
  async *entries(now = Date.now()): AsyncGenerator<{ tenantId: string; hash: string; expiresAt: number }> {
    const head = `{rc:${this.namespace}:`;
    const tail = '}:exp';
    const stream = this.redis.scanStream({ match: `${head}*${tail}`, count: 500 });
    for await (const keys of stream as AsyncIterable<string[]>) {
      for (const key of keys) {
        const tenantId = key.slice(head.length, -tail.length);
        const scored = await this.redis.zrangebyscore(key, now, '+inf', 'WITHSCORES');
        for (let i = 0; i + 1 < scored.length; i += 2) yield { tenantId, hash: scored[i]!, expiresAt: Number(scored[i + 1]) };
      }
    }
  }

  /** Every entry of the tenant; returns how many went. */
  async purge(tenantId: string): Promise<number> {
    const keys = this.keys(tenantId);
    let purged = 0;
    for (;;) {
      const batch = Number(await this.redis.responseCachePurge(keys.lru, keys.expiries, keys.sizes, keys.total, keys.entryPrefix, PURGE_BATCH));
      purged += batch;
      if (batch < PURGE_BATCH) return purged;
    }
  }

  /** The bytes a tenant's entries hold (expired ones until the next write forgets them). */
  async tenantBytes(tenantId: string): Promise<number> {
    return Number((await this.redis.get(this.keys(tenantId).total)) ?? 0);
  }

  private keys(tenantId: string) {
    const tag = `{rc:${this.namespace}:${tenantId}}`;
    const entryPrefix = `${tag}:e:`;
    return {
      entryPrefix,
      entry: (hash: string) => entryPrefix + hash,
      lru: `${tag}:lru`,
      expiries: `${tag}:exp`,
      sizes: `${tag}:sizes`,
      total: `${tag}:bytes`,
    };
  }
}
