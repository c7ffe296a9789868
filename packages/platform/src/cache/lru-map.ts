/**
 * A map holding at most `max` entries, the least recently read or written going first. A Map keeps
 * insertion order, so re-inserting on each read is the whole recency bookkeeping.
 */
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    private readonly max: number,
    /** Told of each entry pushed out by the bound (not of deletions asked for). */
    private readonly onEvict: (key: K, value: V) => void = () => undefined,
  ) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`max must be a positive integer, got ${max}`);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size <= this.max) return;
    const oldest = this.map.keys().next().value as K;
    const evicted = this.map.get(oldest) as V;
    this.map.delete(oldest);
    this.onEvict(oldest, evicted);
  }

  /** The removed value, if the key was there. */
  delete(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) this.map.delete(key);
    return value;
  }

  clear(): void {
    this.map.clear();
  }
}
