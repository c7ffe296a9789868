import { LruMap } from './lru-map';

export interface ReadThroughCacheOptions<V> {
  /** Asks the source of truth. A null answer (nothing by that key) is remembered as a negative entry. */
  load: (key: string) => Promise<V>;
  ttlMs: number;
  /** Most values held; the least recently used goes first. */
  maxEntries: number;
  /** How long a null answer is remembered; 0 (the default) remembers none. */
  negativeTtlMs?: number;
  /** Most null answers held, apart from the values so a flood of unknown keys never evicts a known one. */
  maxNegativeEntries?: number;
  /** Names a value can also be dropped by, such as the tenant it belongs to. */
  tagsOf?: (value: NonNullable<V>) => readonly string[];
  now?: () => number;
}

interface Entry<V> {
  value: V;
  cachedUntil: number;
  tags: readonly string[];
}

const NO_TAGS: readonly string[] = [];

/**
 * Values read through from a source of truth and kept in memory: a TTL, one lookup in flight per key
 * however many callers wait, negative entries for keys that name nothing, LRU bounds, and drops by key,
 * by tag or all at once when the source broadcasts a change. A hit is a synchronous map read.
 */
export class ReadThroughCache<V> {
  private readonly entries: LruMap<string, Entry<NonNullable<V>>>;
  /** Key → time its null answer stops being trusted. */
  private readonly negatives: LruMap<string, number>;
  private readonly byTag = new Map<string, Set<string>>();
  /** A lookup leaves this map when it answers, or earlier when an invalidation abandons it: its answer may predate the change. */
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly negativeTtlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: ReadThroughCacheOptions<V>) {
    this.negativeTtlMs = options.negativeTtlMs ?? 0;
    this.now = options.now ?? Date.now;
    this.entries = new LruMap(options.maxEntries, (key, entry) => this.unindex(key, entry.tags));
    this.negatives = new LruMap(options.maxNegativeEntries ?? options.maxEntries);
  }

  /** Entries held, values and null answers together. */
  get size(): number {
    return this.entries.size + this.negatives.size;
  }

  /** From memory only: the value (null for a remembered null answer), or undefined when not cached. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (this.now() < entry.cachedUntil) return entry.value;
      this.remove(key);
      return undefined;
    }
    const negativeUntil = this.negatives.get(key);
    if (negativeUntil === undefined) return undefined;
    if (this.now() < negativeUntil) return null as V;
    this.negatives.delete(key);
    return undefined;
  }

  /** The cached value, or the one lookup in flight for the key (started now if none is). Failures are not cached. */
  get(key: string): V | Promise<V> {
    const cached = this.peek(key);
    return cached !== undefined ? cached : this.lookup(key);
  }

  drop(keys: Iterable<string>): void {
    for (const key of keys) {
      this.remove(key);
      this.abandon(key);
    }
  }

  /**
   * Drops every value carrying one of the tags. A lookup in flight cannot be told by tag before it
   * answers, so all of them are abandoned: at worst a key is looked up once more.
   */
  dropTagged(tags: readonly string[]): void {
    if (tags.length === 0) return;
    for (const tag of tags) {
      for (const key of [...(this.byTag.get(tag) ?? NO_TAGS)]) this.remove(key);
    }
    this.abandonAll();
  }

  clear(): void {
    this.entries.clear();
    this.negatives.clear();
    this.byTag.clear();
    this.abandonAll();
  }

  private lookup(key: string): Promise<V> {
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const promise: Promise<V> = this.load(key).then(
      (value) => {
        if (this.settle(key, promise)) this.store(key, value);
        return value;
      },
      (error: unknown) => {
        this.settle(key, promise);
        throw error;
      },
    );
    this.inFlight.set(key, promise);
    return promise;
  }

  /** Whether the lookup is still the key's own (no invalidation abandoned it); either way it is no longer in flight. */
  private settle(key: string, lookup: Promise<V>): boolean {
    if (this.inFlight.get(key) !== lookup) return false;
    this.inFlight.delete(key);
    return true;
  }

  private load(key: string): Promise<V> {
    try {
      return this.options.load(key);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private store(key: string, value: V): void {
    this.remove(key);
    const now = this.now();
    if (value === null || value === undefined) {
      if (this.negativeTtlMs > 0) this.negatives.set(key, now + this.negativeTtlMs);
      return;
    }
    const tags = this.options.tagsOf?.(value) ?? NO_TAGS;
    this.entries.set(key, { value, cachedUntil: now + this.options.ttlMs, tags });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (keys === undefined) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.delete(key);
    if (entry !== undefined) this.unindex(key, entry.tags);
    this.negatives.delete(key);
  }

  private unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }

  /** Later callers start a fresh lookup; the abandoned one still answers its own waiters but stores nothing. */
  private abandon(key: string): void {
    this.inFlight.delete(key);
  }

  private abandonAll(): void {
    this.inFlight.clear();
  }
}
