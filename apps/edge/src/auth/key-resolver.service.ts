import { KeyResolveReply, SUBJECTS, type KeyContext } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { followInvalidations } from '../cache/invalidation-feed';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { KeyCache } from './key-cache';

export type KeyResolution = { status: 'valid'; context: KeyContext } | { status: 'unknown' } | { status: 'expired' };

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Resolves API keys to their context: from memory when cached, otherwise one request to accounts per
 * key hash however many requests wait for it. Invalidation broadcasts drop entries at once.
 */
@Injectable()
export class KeyResolverService implements OnModuleInit, OnModuleDestroy {
  readonly cache: KeyCache;
  private readonly inFlight = new Map<string, Promise<KeyContext | null>>();
  /** Bumped on every invalidation so a lookup that raced one does not cache what it fetched. */
  private generation = 0;
  private stopFeed: () => void = () => undefined;
  /** The last key hashed: the rate-limit hook and auth resolve the same key one after the other. */
  private lastKey = '';
  private lastHash = '';

  constructor(
    private readonly bus: NatsBus,
    @Inject(EDGE_ENV) env: EdgeEnv,
  ) {
    this.cache = new KeyCache(env.KEY_CACHE_TTL_SECONDS * 1000, env.NEGATIVE_KEY_CACHE_SECONDS * 1000, Date.now, {
      maxEntries: env.KEY_CACHE_MAX_ENTRIES,
      maxNegativeEntries: env.NEGATIVE_KEY_CACHE_MAX_ENTRIES,
    });
  }

  onModuleInit(): void {
    this.stopFeed = followInvalidations(this.bus, (event) => {
      this.generation++;
      if (event === 'all') return this.cache.clear();
      this.cache.dropKeys(event.keyHashes);
      this.cache.dropTenants(event.tenantIds);
    });
  }

  onModuleDestroy(): void {
    this.stopFeed();
  }

  async resolve(key: string): Promise<KeyResolution> {
    const keyHash = this.hashOf(key);
    const cached = this.cache.lookup(keyHash);
    const context = cached.hit ? cached.context : await this.fetch(keyHash);
    if (context === null) return { status: 'unknown' };
    if (cached.hit ? cached.expired : isExpired(context)) return { status: 'expired' };
    return { status: 'valid', context };
  }

  /** The key's resolution from memory only; null when it is not cached. */
  resolveCached(key: string): KeyResolution | null {
    const cached = this.cache.lookup(this.hashOf(key));
    if (!cached.hit) return null;
    if (cached.context === null) return { status: 'unknown' };
    return cached.expired ? { status: 'expired' } : { status: 'valid', context: cached.context };
  }

  private hashOf(key: string): string {
    if (key !== this.lastKey) {
      this.lastHash = hashApiKey(key);
      this.lastKey = key;
    }
    return this.lastHash;
  }

  private fetch(keyHash: string): Promise<KeyContext | null> {
    const pending = this.inFlight.get(keyHash);
    if (pending) return pending;
    const generation = this.generation;
    const request = this.bus
      .request(SUBJECTS.accounts.keys.resolve, { keyHash }, KeyResolveReply, { timeoutMs: 5000 })
      .then((context) => {
        if (generation === this.generation) this.cache.store(keyHash, context);
        return context;
      })
      .finally(() => this.inFlight.delete(keyHash));
    this.inFlight.set(keyHash, request);
    return request;
  }
}

function isExpired(context: KeyContext): boolean {
  return context.expiresAt !== null && Date.parse(context.expiresAt) <= Date.now();
}
