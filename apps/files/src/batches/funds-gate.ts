import { setTimeout as sleep } from 'node:timers/promises';

/** How a line refused for funds waits between attempts: from the first wait, doubling up to the last, each jittered. */
const FIRST_WAIT_MS = 100;
const LAST_WAIT_MS = 2_000;
/**
 * How long after a line of the tenant was served a refused line still waits: a served line's hold ends
 * only when its usage reaches the books, a moment after its call returned.
 */
const SETTLE_WINDOW_MS = 15_000;

interface TenantLines {
  /** Lines of the tenant in a call to the chat service now: any of them may hold part of the balance. */
  trying: number;
  /** Lines of the tenant waiting to run again. */
  waiting: number;
  /** When a call of the tenant's lines was last served (not refused for funds); 0 when none was. */
  servedAt: number;
}

/**
 * Tells a batch line refused for the tenant's funds whether to wait and run again. It waits while another
 * line of the tenant (in this worker) is in a call, whose hold may be what the balance lacks, or for a
 * while after a line of the tenant was served: the balance covers a line alone, and what holds it now (those
 * lines' holds, a chat process's lease for them) ends once their usage is booked. A line refused when no line
 * stands in front of it and none was served lately fails at once: the balance cannot cover it alone. The
 * caller bounds the wait (BATCH_FUNDS_WAIT_MS).
 */
export class FundsGate {
  private readonly tenants = new Map<string, TenantLines>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly settleWindowMs = SETTLE_WINDOW_MS,
  ) {}

  /** Runs one call of a line of `tenantId`, counted while it runs. */
  async attempt<T extends { fundsRefused?: boolean }>(tenantId: string, call: () => Promise<T>): Promise<T> {
    const lines = this.linesOf(tenantId);
    lines.trying++;
    try {
      const outcome = await call();
      if (!outcome.fundsRefused) lines.servedAt = this.now();
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

  /** Whether a line of `tenantId` just refused for funds should wait for other lines' holds to end. */
  othersMayHold(tenantId: string): boolean {
    const lines = this.tenants.get(tenantId);
    return lines !== undefined && (lines.trying > 0 || this.servedLately(lines));
  }

  private linesOf(tenantId: string): TenantLines {
    let lines = this.tenants.get(tenantId);
    if (!lines) this.tenants.set(tenantId, (lines = { trying: 0, waiting: 0, servedAt: 0 }));
    return lines;
  }

  private servedLately(lines: TenantLines): boolean {
    return lines.servedAt > 0 && this.now() - lines.servedAt < this.settleWindowMs;
  }

  /** A tenant with no line in a call or waiting, and none served lately, is forgotten (others of the kind with it). */
  private forgetIdle(tenantId: string, lines: TenantLines): void {
    if (lines.trying > 0 || lines.waiting > 0) return;
    if (!this.servedLately(lines)) this.tenants.delete(tenantId);
    for (const [id, other] of this.tenants) if (other.trying === 0 && other.waiting === 0 && !this.servedLately(other)) this.tenants.delete(id);
  }

  /** The wait before attempt `n` + 1 (1 for the first retry), jittered so waiting lines do not run again in step. */
  static waitMs(n: number, random = Math.random): number {
    const base = Math.min(FIRST_WAIT_MS * 2 ** (n - 1), LAST_WAIT_MS);
    return Math.round(base * (0.5 + random()));
  }
}
