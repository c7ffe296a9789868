import type { KeyContext } from '@gateway/contracts';

interface Entry {
  /** null: the key is unknown or revoked (negative entry). */
  context: KeyContext | null;
  cachedUntil: number;
  /** When the key itself stops working (subscription expiry); Infinity when it never does. */
  keyExpiresAt: number;
}

export type CacheLookup = { hit: false } | { hit: true; context: KeyContext | null; expired: boolean };

const MISS: CacheLookup = { hit: false };

/**
 * Key contexts by key hash, with a TTL, a short negative TTL for unknown keys, and an index by tenant
 * so an invalidation naming a tenant drops every key of it.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byTenant = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly negativeTtlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  lookup(keyHash: string): CacheLookup {
    const entry = this.entries.get(keyHash);
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
    this.entries.set(keyHash, { context, cachedUntil: this.now() + ttl, keyExpiresAt });
    if (context) {
      let hashes = this.byTenant.get(context.tenantId);
      if (!hashes) this.byTenant.set(context.tenantId, (hashes = new Set()));
      hashes.add(keyHash);
    }
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
    this.byTenant.clear();
  }

  private delete(keyHash: string): void {
    const entry = this.entries.get(keyHash);
    if (!entry) return;
    this.entries.delete(keyHash);
    const tenantId = entry.context?.tenantId;
    if (tenantId === undefined) return;
    const hashes = this.byTenant.get(tenantId);
    hashes?.delete(keyHash);
    if (hashes?.size === 0) this.byTenant.delete(tenantId);
  }
}
