import { LRUCache } from 'lru-cache';

const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Failed authentications per client address, in this replica's memory: an address that presents
 * too many unknown keys in a minute is refused before its keys cost an accounts lookup. Addresses
 * are bounded too (LRU), as a flood may come from many of them.
 */
export class AuthFailureLimiter {
  private readonly windows: LRUCache<string, Window>;

  constructor(
    /** 0: no limit. */
    private readonly perMinute: number,
    maxAddresses = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.windows = new LRUCache({ max: maxAddresses });
  }

  /** Seconds until the address may try again, or null when it may try now. */
  retryAfterSeconds(address: string): number | null {
    if (this.perMinute === 0) return null;
    const window = this.current(address);
    if (window === undefined || window.failures < this.perMinute) return null;
    return Math.max(1, Math.ceil((window.startedAt + WINDOW_MS - this.now()) / 1000));
  }

  record(address: string): void {
    if (this.perMinute === 0) return;
    const window = this.current(address);
    if (window) window.failures++;
    else this.windows.set(address, { startedAt: this.now(), failures: 1 });
  }

  private current(address: string): Window | undefined {
    const window = this.windows.get(address);
    if (window && this.now() - window.startedAt >= WINDOW_MS) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }
}
