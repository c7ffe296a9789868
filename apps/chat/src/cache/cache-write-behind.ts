import type { PutOutcome, ResponseCacheStore } from './response-cache.store';

/** How long a store waits, so the answer's reply crosses NATS and the edge before Redis runs the write. */
const PUT_DELAY_MS = 5;
/** How often the last reads of entries served from memory are marked in the store (its LRU order). */
const TOUCH_EVERY_MS = 1_000;

interface PendingPut {
  tenantId: string;
  hash: string;
  value: Buffer;
  ttlSeconds: number;
  done: (outcome: Promise<PutOutcome>) => void;
}

/**
 * The store's writes off the reply's path: entries are put a few milliseconds after their answer left
 * (this process finds them in its index and memory meanwhile), and reads served from memory are marked
 * once a second, one command per tenant.
 */
export class CacheWriteBehind {
  private puts: PendingPut[] = [];
  private putTimer: NodeJS.Timeout | null = null;
  private touched = new Map<string, Map<string, number>>();
  private readonly touchTimer: NodeJS.Timeout;

  constructor(private readonly store: ResponseCacheStore) {
    this.touchTimer = setInterval(() => void this.flushTouches(), TOUCH_EVERY_MS).unref();
  }

  put(tenantId: string, hash: string, value: Buffer, ttlSeconds: number): Promise<PutOutcome> {
    return new Promise((resolve, reject) => {
      this.puts.push({ tenantId, hash, value, ttlSeconds, done: (outcome) => outcome.then(resolve, reject) });
      this.putTimer ??= setTimeout(() => this.flushPuts(), PUT_DELAY_MS);
    });
  }

  touch(tenantId: string, hash: string, now = Date.now()): void {
    let hashes = this.touched.get(tenantId);
    if (!hashes) this.touched.set(tenantId, (hashes = new Map()));
    hashes.set(hash, now);
  }

  /** Writes what is pending now (at shutdown, and for specs that read the store right after). */
  async flush(): Promise<void> {
    await Promise.allSettled([this.flushPuts(), this.flushTouches()]);
  }

  close(): void {
    clearInterval(this.touchTimer);
  }

  private async flushPuts(): Promise<void> {
    if (this.putTimer) clearTimeout(this.putTimer);
    this.putTimer = null;
    const puts = this.puts;
    this.puts = [];
    const outcomes = puts.map((put) => this.store.put(put.tenantId, put.hash, put.value, put.ttlSeconds));
    puts.forEach((put, i) => put.done(outcomes[i]!));
    await Promise.allSettled(outcomes);
  }

  private async flushTouches(): Promise<void> {
    const touched = this.touched;
    this.touched = new Map();
    await Promise.allSettled([...touched].map(([tenantId, hashes]) => this.store.touchMany(tenantId, hashes)));
  }
}
