import type { KeyContext } from '@gateway/contracts';
import { LRUCache } from 'lru-cache';

interface Entry {
  /** null: the key is unknown or revoked (negative entry). */
  context: KeyContext | null;
  cachedUntil: number;
  /** When the key itself stops working (subscription expiry); Infinity when it never does. */
  keyExpiresAt: number;
}

export type CacheLookup = { hit: false } | { hit: true; context: KeyContext | null; expired: boolean };

const MISS: CacheLookup = { hit: false };

export interface KeyCacheBounds {
  /** Most known keys held; the least recently used goes first. */
  maxEntries: number;
  /** Most unknown keys remembered, apart so a flood of bad keys never evicts a good one. */
  maxNegativeEntries: number;
}

const DEFAULT_BOUNDS: KeyCacheBounds = { maxEntries: 10_000, maxNegativeEntries: 10_000 };

/**
 * Key contexts by key hash, with a TTL, a short negative TTL for unknown keys, and an index by tenant
 * so an invalidation naming a tenant drops every key of it. Both kinds are LRU-bounded: distinct keys
 * are unbounded input from clients.
 */
export class KeyCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly negatives: LRUCache<string, Entry>;
  private readonly byTenant = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly negativeTtlMs: number,
    private readonly now: () => number = Date.now,
    bounds: KeyCacheBounds = DEFAULT_BOUNDS,
  ) {
    // Eviction, deletion and overwrite all pass through dispose, so the tenant index never names a gone entry.
    this.entries = new LRUCache({ max: bounds.maxEntries, dispose: (entry, keyHash) => this.unindex(keyHash, entry) });
    this.negatives = new LRUCache({ max: bounds.maxNegativeEntries });
  }

  get size(): number {
    return this.entries.size + this.negatives.size;
  }

  lookup(keyHash: string): CacheLookup {
    const entry = this.entries.get(keyHash) ?? this.negatives.get(keyHash);
    if (entry === undefined) return MISS;
    const now = this.now();
    if (now >= entry.cachedUntil) {
      this.delete(keyHash);
      return MISS;
    }
    return { hit: true, context: entry.context, expired: now >= entry.keyExpiresAt };
  }

  store(keyHash: string, context: KeyContext | null): void {
    if (context === null && this.negativeTtlMs === 0) return;
    this.delete(keyHash);
    const keyExpiresAt = context?.expiresAt ? Date.parse(context.expiresAt) : Number.POSITIVE_INFINITY;
    const ttl = context ? this.ttlMs : this.negativeTtlMs;
    const entry: Entry = { context, cachedUntil: this.now() + ttl, keyExpiresAt };
    if (context === null) {
      this.negatives.set(keyHash, entry);
      return;
    }
    this.entries.set(keyHash, entry);
    let hashes = this.byTenant.get(context.tenantId);
    if (!hashes) this.byTenant.set(context.tenantId, (hashes = new Set()));
    hashes.add(keyHash);
  }

  dropKeys(keyHashes: readonly string[]): void {
    for (const hash of keyHashes) this.delete(hash);
  }

  dropTenants(tenantIds: readonly string[]): void {
    for (const tenantId of tenantIds) {
      for (const hash of [...(this.byTenant.get(tenantId) ?? [])]) this.delete(hash);
    }
  }

  clear(): void {
    this.entries.clear();
    this.negatives.clear();
    this.byTenant.clear();
  }

  private delete(keyHash: string): void {
    this.entries.delete(keyHash);
    this.negatives.delete(keyHash);
  }

  private unindex(keyHash: string, entry: Entry): void {
    const tenantId = entry.context?.tenantId;
    if (tenantId === undefined) return;
    const hashes = this.byTenant.get(tenantId);
    hashes?.delete(keyHash);
    if (hashes?.size === 0) this.byTenant.delete(tenantId);
  }
}
