import { KeyResolveReply, SUBJECTS, type KeyContext } from '@gateway/contracts';
import { NatsBus, ReadThroughCache } from '@gateway/platform';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { followInvalidations } from '../cache/invalidation-feed';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';

export type KeyResolution = { status: 'valid'; context: KeyContext } | { status: 'unknown' } | { status: 'expired'; by: 'key' | 'subscription'; at: string };

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A known key as cached: its valid resolution, built once, and when the key itself stops working. */
interface KnownKey {
  valid: Extract<KeyResolution, { status: 'valid' }>;
  /** The key's end (its own or its subscription's); Infinity when the key never expires. */
  expiresAt: number;
  /** Its resolution from then on, built once. */
  expired: Extract<KeyResolution, { status: 'expired' }> | null;
}

const UNKNOWN: KeyResolution = Object.freeze({ status: 'unknown' });

/**
 * Resolves API keys to their context: from memory when cached, otherwise one request to accounts per
 * key hash however many requests wait for it. Invalidation broadcasts drop entries at once.
 */
@Injectable()
export class KeyResolverService implements OnModuleInit, OnModuleDestroy {
  /** Known keys by hash, indexed by tenant; unknown keys remembered apart for the negative TTL. */
  readonly cache: ReadThroughCache<KnownKey | null>;
  private stopFeed: () => void = () => undefined;
  /** The last key hashed: the rate-limit hook and auth resolve the same key one after the other. */
  private lastKey = '';
  private lastHash = '';

  constructor(
    private readonly bus: NatsBus,
    @Inject(EDGE_ENV) env: EdgeEnv,
  ) {
    this.cache = new ReadThroughCache({
      load: (keyHash) => this.lookUp(keyHash),
      ttlMs: env.KEY_CACHE_TTL_SECONDS * 1000,
      negativeTtlMs: env.NEGATIVE_KEY_CACHE_SECONDS * 1000,
      maxEntries: env.KEY_CACHE_MAX_ENTRIES,
      maxNegativeEntries: env.NEGATIVE_KEY_CACHE_MAX_ENTRIES,
      tagsOf: (key) => [key.valid.context.tenantId],
    });
  }

  onModuleInit(): void {
    this.stopFeed = followInvalidations(this.bus, (event) => {
      if (event === 'all') return this.cache.clear();
      this.cache.drop(event.keyHashes);
      this.cache.dropTagged(event.tenantIds);
    });
  }

  onModuleDestroy(): void {
    this.stopFeed();
  }

  async resolve(key: string): Promise<KeyResolution> {
    const cached = this.cache.get(this.hashOf(key));
    return toResolution(cached instanceof Promise ? await cached : cached);
  }

  /** The key's resolution from memory only; null when it is not cached. */
  resolveCached(key: string): KeyResolution | null {
    const cached = this.cache.peek(this.hashOf(key));
    return cached === undefined ? null : toResolution(cached);
  }

  private hashOf(key: string): string {
    if (key !== this.lastKey) {
      this.lastHash = hashApiKey(key);
      this.lastKey = key;
    }
    return this.lastHash;
  }

  private async lookUp(keyHash: string): Promise<KnownKey | null> {
    const context = await this.bus.request(SUBJECTS.accounts.keys.resolve, { keyHash }, KeyResolveReply, { timeoutMs: 5000, idempotent: true });
    if (context === null) return null;
    const expiresAt = context.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(context.expiresAt);
    const expired =
      context.expiresAt === null ? null : Object.freeze({ status: 'expired' as const, by: context.expiredBy ?? 'subscription', at: context.expiresAt });
    return { valid: { status: 'valid', context }, expiresAt, expired };
  }
}

function toResolution(key: KnownKey | null): KeyResolution {
  if (key === null) return UNKNOWN;
  return key.expired !== null && Date.now() >= key.expiresAt ? key.expired : key.valid;
}
