// Holds on the sandbox's batches, set by a test through /_sandbox/batch-holds: the lines whose custom_id
// begins with a prefix run until `after` of them have started, then wait until the hold is lifted or their
// batch is cancelled. A test that cancels a batch "while it runs" arranges that moment instead of racing
// the batch for it.
import { z } from 'zod';

export const BatchHold = z.object({
  customIdPrefix: z.string().min(1).max(200),
  after: z.number().int().min(0).max(1_000_000),
});
export type BatchHold = z.infer<typeof BatchHold>;

export class BatchHolds {
  private readonly holds = new Map<string, BatchHold>();
  private waiters: Array<() => void> = [];

  set(hold: BatchHold): void {
    this.holds.set(hold.customIdPrefix, hold);
    this.wake();
  }

  lift(customIdPrefix: string): boolean {
    const lifted = this.holds.delete(customIdPrefix);
    this.wake();
    return lifted;
  }

  list(): BatchHold[] {
    return [...this.holds.values()];
  }

  /** How many lines with this custom_id may start before the hold stops them; undefined when none holds them. */
  allowanceFor(customId: string): number | undefined {
    for (const hold of this.holds.values()) if (customId.startsWith(hold.customIdPrefix)) return hold.after;
    return undefined;
  }

  /** Resolves at the next change of any hold or batch (`wake`); the caller checks its condition again. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Called when a hold changes or a batch is cancelled. */
  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
