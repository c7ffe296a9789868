import { setTimeout as sleep } from 'node:timers/promises';

/** How a line refused for funds waits between attempts: from the first wait, doubling up to the last, each jittered. */
const FIRST_WAIT_MS = 100;
const LAST_WAIT_MS = 2_000;
/**
 * How long after a line of the tenant was served its hold may still be held: holds end when the usage
 * writer records the call, shortly after it answered.
 */
const SETTLE_GRACE_MS = 3_000;

interface TenantLines {
  /** Lines of the tenant in a call to the chat service now: any of them may hold part of the balance. */
  trying: number;
  /** Calls of the tenant's lines that ended other than refused for funds: holds that ended. */
  served: number;
  /** Lines of the tenant waiting to run again. */
  waiting: number;
  /** When a call of the tenant's lines was last served. */
  servedAt: number;
}

/**
 * Tells a batch line refused for the tenant's funds whether to wait and run again: only while another line
 * of the tenant (in this worker) is in a call, whose hold may be what the balance lacks, or has ended one
 * since this line last looked. A line no other line stands in front of fails at once: the balance cannot
 * cover it alone.
 */
export class FundsGate {
  private readonly tenants = new Map<string, TenantLines>();

  /** Runs one call of a line of `tenantId`, counted while it runs. */
  async attempt<T extends { fundsRefused?: boolean }>(tenantId: string, call: () => Promise<T>): Promise<T> {
    const lines = this.linesOf(tenantId);
    lines.trying++;
    try {
      const outcome = await call();
      if (!outcome.fundsRefused) {
        lines.served++;
        lines.servedAt = Date.now();
      }
      return outcome;
    } finally {
      lines.trying--;
      this.forgetIdle(tenantId, lines);
    }
  }

  /** A refused line's wait before it runs again, counted while it lasts. */
  async wait(tenantId: string, ms: number): Promise<void> {
    const lines = this.linesOf(tenantId);
    lines.waiting++;
    try {
      await sleep(ms);
    } finally {
      lines.waiting--;
      this.forgetIdle(tenantId, lines);
    }
  }

  /** What a line looks at: how many calls of the tenant had been served. */
  mark(tenantId: string): number {
    return this.tenants.get(tenantId)?.served ?? 0;
  }

  /**
   * Whether a line refused for funds, that last looked at `mark`, should wait for other lines' holds: one
   * is in a call, or one was served since the line looked or so recently that its hold may not have ended.
   */
  othersMayHold(tenantId: string, mark: number, now = Date.now()): boolean {
    const lines = this.tenants.get(tenantId);
    if (!lines) return false;
    return lines.trying > 0 || lines.served !== mark || now - lines.servedAt < SETTLE_GRACE_MS;
  }

  private linesOf(tenantId: string): TenantLines {
    let lines = this.tenants.get(tenantId);
    if (!lines) this.tenants.set(tenantId, (lines = { trying: 0, served: 0, waiting: 0, servedAt: 0 }));
    return lines;
  }

  /** A tenant with no line in a call or waiting is forgotten: no line of it looks at its marks any more. */
  private forgetIdle(tenantId: string, lines: TenantLines): void {
    if (lines.trying === 0 && lines.waiting === 0) this.tenants.delete(tenantId);
  }

  /** The wait before attempt `n` (1 for the first retry), jittered so waiting lines do not run again in step. */
  static waitMs(n: number, random = Math.random): number {
    const base = Math.min(FIRST_WAIT_MS * 2 ** (n - 1), LAST_WAIT_MS);
    return Math.round(base * (0.5 + random()));
  }
}
