import type { CachedAnswer } from './cached-answer';

export interface LocalCacheLimits {
  /** Entries the index follows; past it the index stops answering and every lookup reads Redis. */
  maxEntries: number;
  /** Bytes of answers kept in this process, least recently used first out; 0 keeps none. */
  maxValueBytes: number;
}

/** What the index knows of one entry: absent (a miss without Redis), present, or unknown (ask Redis). */
export type Presence = 'absent' | 'present' | 'unknown';

interface LocalValue {
  answer: CachedAnswer;
  bytes: number;
  expiresAt: number;
}

/**
 * This process's view of the store: the hash and expiry of every entry, learned from the store at start-up
 * and from every process's stores and purges since, so a miss costs no Redis read; and the most used
 * answers themselves, so a hit costs none either. It only answers once it has followed the store whole.
 */
export class LocalCacheIndex {
  private readonly entries = new Map<string, Map<string, number>>();
  private readonly values = new Map<string, LocalValue>();
  private entryCount = 0;
  private valueBytes = 0;
  private complete = false;
  private overflowed = false;

  constructor(private readonly limits: LocalCacheLimits) {}

  /** Whether misses are decided here: the store was read whole and nothing was dropped since. */
  get answering(): boolean {
    return this.complete && !this.overflowed;
  }

  /** Forgets everything and stops answering until `loaded`: the store is being read again. */
  reset(): void {
    this.entries.clear();
    this.values.clear();
    this.entryCount = 0;
    this.valueBytes = 0;
    this.complete = false;
    this.overflowed = false;
  }

  /** The store was read whole (after `reset`, with every entry `add`ed). */
  loaded(): void {
    this.complete = true;
  }

  presence(tenantId: string, hash: string, now = Date.now()): Presence {
    if (!this.answering) return 'unknown';
    const expiresAt = this.entries.get(tenantId)?.get(hash);
    if (expiresAt === undefined) return 'absent';
    if (expiresAt > now) return 'present';
    this.forget(tenantId, hash);
    return 'absent';
  }

  /** When a present entry expires (undefined when the index does not know it). */
  expiresAt(tenantId: string, hash: string): number | undefined {
    return this.entries.get(tenantId)?.get(hash);
  }

  add(tenantId: string, hash: string, expiresAt: number): void {
    let hashes = this.entries.get(tenantId);
    if (!hashes) this.entries.set(tenantId, (hashes = new Map()));
    if (!hashes.has(hash)) {
      if (this.entryCount >= this.limits.maxEntries) {
        this.overflowed = true;
        return;
      }
      this.entryCount++;
    }
    hashes.set(hash, expiresAt);
  }

  /** The answer kept here, when it is and has not expired (it becomes the most recently used). */
  value(tenantId: string, hash: string, now = Date.now()): CachedAnswer | null {
    const key = valueKey(tenantId, hash);
    const kept = this.values.get(key);
    if (!kept) return null;
    this.values.delete(key);
    if (kept.expiresAt <= now) {
      this.valueBytes -= kept.bytes;
      return null;
    }
    this.values.set(key, kept);
    return kept.answer;
  }

  keepValue(tenantId: string, hash: string, answer: CachedAnswer, bytes: number, expiresAt: number): void {
    if (bytes > this.limits.maxValueBytes) return;
    const key = valueKey(tenantId, hash);
    this.dropValue(key);
    this.values.set(key, { answer, bytes, expiresAt });
    this.valueBytes += bytes;
    for (const [oldest, kept] of this.values) {
      if (this.valueBytes <= this.limits.maxValueBytes) break;
      this.values.delete(oldest);
      this.valueBytes -= kept.bytes;
    }
  }

  /** One entry is gone from the store (not stored after all, or found missing). */
  forget(tenantId: string, hash: string): void {
    const hashes = this.entries.get(tenantId);
    if (hashes?.delete(hash)) this.entryCount--;
    if (hashes?.size === 0) this.entries.delete(tenantId);
    this.dropValue(valueKey(tenantId, hash));
  }

  /** Every entry of the tenant is gone (a purge). */
  forgetTenant(tenantId: string): void {
    const hashes = this.entries.get(tenantId);
    if (hashes) this.entryCount -= hashes.size;
    this.entries.delete(tenantId);
    const prefix = valueKey(tenantId, '');
    for (const key of this.values.keys()) if (key.startsWith(prefix)) this.dropValue(key);
  }

  private dropValue(key: string): void {
    const kept = this.values.get(key);
    if (!kept) return;
    this.values.delete(key);
    this.valueBytes -= kept.bytes;
  }
}

const valueKey = (tenantId: string, hash: string) => `${tenantId}\n${hash}`;
