// Holds set by a test through /_sandbox/holds: the work whose key begins with a prefix (a batch line's
// custom_id, a chat request's last user message) starts until `after` of it has started, then waits until
// the hold is lifted (or, for a batch line, its batch is cancelled). A test that cancels a batch "while it
// runs" arranges that moment instead of racing the batch for it.
import { z } from 'zod';

export const Hold = z.object({
  prefix: z.string().min(1).max(200),
  after: z.number().int().min(0).max(1_000_000),
});
export type Hold = z.infer<typeof Hold>;

export interface HoldState extends Hold {
  started: number;
}

export class Holds {
  private readonly holds = new Map<string, HoldState>();
  private waiters: Array<() => void> = [];

  /** Sets (or sets again, counting from 0) the hold of a prefix. */
  set(hold: Hold): void {
    this.holds.set(hold.prefix, { ...hold, started: 0 });
    this.wake();
  }

  lift(prefix: string): boolean {
    const lifted = this.holds.delete(prefix);
    this.wake();
    return lifted;
  }

  list(): HoldState[] {
    return [...this.holds.values()].map((hold) => ({ ...hold }));
  }

  /** True when work with this key may start now, and counts it; false while a hold stops it. */
  tryStart(key: string): boolean {
    const hold = [...this.holds.values()].find((candidate) => key.startsWith(candidate.prefix));
    if (!hold) return true;
    if (hold.started >= hold.after) return false;
    hold.started++;
    return true;
  }

  /** Waits until work with this key may start (and counts it), or until the signal aborts. */
  async admit(key: string, signal?: AbortSignal): Promise<void> {
    while (!this.tryStart(key)) {
      if (signal?.aborted) return;
      const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
      await Promise.race([this.changed(), aborted]);
    }
  }

  /** Resolves at the next change of any hold, or at a batch's cancel (`wake`); the caller checks again. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
