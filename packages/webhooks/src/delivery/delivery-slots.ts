/** How many deferred deliveries one share remembers to wake; beyond it they wait out their timer. */
const MAX_WAITING = 10_000;

/**
 * Fair shares of one worker process's delivery slots: at most `perReceiver` attempts in flight to one
 * receiver origin and `perTenant` for one tenant. A receiver that never answers fills only its own
 * share; its other deliveries wait outside the worker's slots (moved back to the delayed set), so
 * other tenants' and receivers' deliveries keep going. A delivery that found its share full is
 * remembered by that share, oldest first, and a slot freed there wakes the first (`onFreed`), so a
 * busy share's deliveries follow each other at once instead of on their timer.
 */
export class DeliverySlots {
  private readonly inFlight = new Map<string, number>();
  private readonly waiting = new Map<string, Set<string>>();
  /** Deliveries waiting in this process for a slot of a share, oldest first. */
  private readonly nearby = new Map<string, (() => void)[]>();
  private wake: (waiter: string) => void = () => undefined;

  constructor(
    private readonly perReceiver: number,
    private readonly perTenant: number,
  ) {}

  /** Told the waiter (a delivery job's id) a freed slot is for. */
  onFreed(wake: (waiter: string) => void): void {
    this.wake = wake;
  }

  /**
   * Takes a slot for a delivery to `url` of `tenantId`; null when either share is full, else the release.
   * `waiter` names the delivery to wake when the full share frees a slot.
   */
  tryAcquire(tenantId: string, url: string, waiter?: string): (() => void) | null {
    const keys = this.keysOf(tenantId, url);
    const full = this.fullShare(keys);
    if (full) {
      if (waiter !== undefined) this.remember(full, waiter);
      return null;
    }
    return this.take(keys, waiter);
  }

  /**
   * The same, waiting here up to `waitMs` for a slot of a full share: a busy receiver's next delivery
   * follows the one before at once, while one that never answers still gives the worker its slot back.
   */
  async acquire(tenantId: string, url: string, waitMs: number, waiter?: string): Promise<(() => void) | null> {
    const keys = this.keysOf(tenantId, url);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const full = this.fullShare(keys);
      if (!full) return this.take(keys, waiter);
      const left = deadline - Date.now();
      if (left <= 0) {
        if (waiter !== undefined) this.remember(full, waiter);
        return null;
      }
      await this.freedOrAfter(full, left);
    }
  }

  private keysOf(tenantId: string, url: string): string[] {
    return [`receiver:${originOf(url)}`, `tenant:${tenantId}`];
  }

  private fullShare(keys: string[]): string | undefined {
    const limits = [this.perReceiver, this.perTenant];
    return keys.find((key, i) => (this.inFlight.get(key) ?? 0) >= limits[i]!);
  }

  /** Resolves when a slot of `key` frees for this caller, or after `ms`. */
  private freedOrAfter(key: string, ms: number): Promise<void> {
    const queue = this.nearby.get(key) ?? [];
    this.nearby.set(key, queue);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = queue.indexOf(done);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.nearby.get(key) === queue) this.nearby.delete(key);
        resolve();
      }, ms);
      queue.push(done);
    });
  }

  private take(keys: string[], waiter: string | undefined): () => void {
    if (waiter !== undefined) for (const key of keys) this.waiting.get(key)?.delete(waiter);
    for (const key of keys) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = (this.inFlight.get(key) ?? 1) - 1;
        if (left <= 0) this.inFlight.delete(key);
        else this.inFlight.set(key, left);
        this.wakeFirst(key);
      }
    };
  }

  /** Attempts in flight to the receiver of `url` (for tests and metrics). */
  receiverLoad(url: string): number {
    return this.inFlight.get(`receiver:${originOf(url)}`) ?? 0;
  }

  private remember(key: string, waiter: string): void {
    let waiters = this.waiting.get(key);
    if (!waiters) this.waiting.set(key, (waiters = new Set()));
    if (waiters.size < MAX_WAITING) waiters.add(waiter);
  }

  /** A freed slot goes to a delivery waiting here first, else wakes the oldest deferred one. */
  private wakeFirst(key: string): void {
    const queue = this.nearby.get(key);
    const here = queue?.shift();
    if (queue && queue.length === 0) this.nearby.delete(key);
    if (here) return here();
    const waiters = this.waiting.get(key);
    const first = waiters?.values().next();
    if (!waiters || !first || first.done) return;
    waiters.delete(first.value);
    if (waiters.size === 0) this.waiting.delete(key);
    this.wake(first.value);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
