import type { LeaseClose } from '@gateway/contracts';
import { randomUUID } from 'node:crypto';
import type { BudgetHold, WalletStore } from '../redis/wallet.store';

export interface LeaseOptions {
  /** A lease holds this many times the cost of the request that opens it. */
  requestsPerLease: number;
  /** A lease admits no new request after this long, so it never outlives its hold. */
  maxAgeMs: number;
  /** A lease nobody used this long is closed, giving the rest back. */
  idleMs: number;
  /** A lease's hold lives this long unless renewed; the book renews it every third of that until it closes. */
  holdTtlMs: number;
}

export interface Lease {
  id: string;
  tenantId: string;
  /** What leases are kept by: the tenant, and the budget counters it is held against. */
  key: string;
  /** What is left to admit requests against (their maximum costs while they run). */
  available: bigint;
  /** What its ended requests cost in total: what their draws add up to. */
  charged: bigint;
  inFlight: number;
  openedAt: number;
  lastUsedAt: number;
  retired: boolean;
}

/** A request admitted under a lease, for its maximum cost. */
export interface LeaseTicket {
  readonly lease: Lease;
  readonly reserved: bigint;
}

/**
 * Prepaid-balance leases of one process. A lease is one balance hold (one Redis call) for several
 * requests' worth; requests are then admitted against it in memory, each for its maximum cost, so the
 * hot path makes no round trip. A lease is taken atomically from the balance, and what a lease admits
 * never exceeds what it holds; usage beyond a request's admission is charged too, out of the balance as
 * far as it reaches (the rest is written off: see DRAW_SCRIPT). Each request's actual cost is drawn from the
 * lease by the durable usage record; when a retired lease's last request ends, its close (with the
 * total it admitted) goes out the same way and the rest returns to the balance. A lease's hold is short
 * and renewed while the lease is open here, so one whose process died is released by the hold sweeper
 * within its lifetime, less what its requests' records drew.
 */
export class LeaseBook {
  private readonly current = new Map<string, Lease>();
  private readonly opening = new Map<string, Promise<boolean>>();
  private readonly listeners: Array<(close: LeaseClose) => void> = [];
  /** Leases not yet closed (current or retired with requests running): their holds are renewed. */
  private readonly unclosed = new Set<string>();
  private timer?: NodeJS.Timeout;
  private renewer?: NodeJS.Timeout;

  constructor(
    private readonly wallet: WalletStore,
    /** Copies the tenant's stored balance into Redis when Redis has none. */
    private readonly seed: (tenantId: string) => Promise<void>,
    private readonly options: LeaseOptions,
  ) {}

  /** Receives each closed lease (the durable usage publisher carries them after the draws). */
  onClose(listener: (close: LeaseClose) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Admits a request costing at most `amount` under the tenant's lease, opening one if needed; null when no
   * lease covers it. A request under budgets is admitted only under a lease held against the same budget
   * counters, taken from them in the same step as from the balance, so what leases admit never passes a
   * budget either; a lease that does not fit what a budget has left is not opened (the request then holds
   * its own reservation, refused exactly when it does not fit).
   */
  async admit(tenantId: string, amount: bigint, budgets: readonly BudgetHold[] = []): Promise<LeaseTicket | null> {
    const key = budgets.length === 0 ? tenantId : `${tenantId}|${budgets.map((b) => b.counterId).join(',')}`;
    const ticket = this.take(key, amount);
    if (ticket) return ticket;
    let opening = this.opening.get(key);
    if (!opening) {
      opening = this.open(key, tenantId, amount, budgets).finally(() => this.opening.delete(key));
      this.opening.set(key, opening);
    }
    return (await opening) ? this.take(key, amount) : null;
  }

  /**
   * The request ended having cost `actual`; returns what it is charged here: all of it, even beyond what
   * it was admitted for (an upstream that reported more than the estimate). The excess leaves the lease
   * with less to admit others against; its draw takes what the lease cannot cover from the balance, as far
   * as the balance reaches, and writes off the rest.
   */
  end(ticket: LeaseTicket, actual: bigint): bigint {
    const { lease, reserved } = ticket;
    const charge = actual < 0n ? 0n : actual;
    lease.available += reserved - charge;
    lease.charged += charge;
    lease.inFlight--;
    if (lease.retired && lease.inFlight === 0) this.close(lease);
    return charge;
  }

  /** Stops admitting under every lease (shutdown); each closes once its requests have ended. */
  retireAll(): void {
    for (const lease of [...this.current.values()]) this.retire(lease);
  }

  private take(key: string, amount: bigint): LeaseTicket | null {
    const lease = this.current.get(key);
    if (!lease) return null;
    const now = Date.now();
    if (lease.available < amount || now - lease.openedAt > this.options.maxAgeMs) {
      this.retire(lease);
      return null;
    }
    lease.available -= amount;
    lease.inFlight++;
    lease.lastUsedAt = now;
    return { lease, reserved: amount };
  }

  private async open(key: string, tenantId: string, amount: bigint, budgets: readonly BudgetHold[]): Promise<boolean> {
    const size = amount * BigInt(this.options.requestsPerLease);
    if (size <= 0n) return false;
    const id = `lease:${randomUUID()}`;
    const input = { requestId: id, tenantId, amount: size, holdTtlMs: this.options.holdTtlMs, target: { mode: 'balance' } as const, lease: true, budgets };
    let outcome = await this.wallet.reserve(input);
    if (outcome.status === 'unseeded') {
      await this.seed(tenantId);
      outcome = await this.wallet.reserve(input);
    }
    if (outcome.status !== 'reserved') return false;
    const previous = this.current.get(key);
    if (previous) this.retire(previous);
    const now = Date.now();
    this.current.set(key, { id, tenantId, key, available: size, charged: 0n, inFlight: 0, openedAt: now, lastUsedAt: now, retired: false });
    this.unclosed.add(id);
    this.renewer ??= setInterval(() => void this.renew(), Math.max(50, Math.floor(this.options.holdTtlMs / 3))).unref();
    this.timer ??= setInterval(() => this.retireStale(), Math.max(50, Math.floor(this.options.idleMs / 2))).unref();
    return true;
  }

  /** Keeps the holds of unclosed leases alive; a failed renewal is tried again at the next tick, well inside their lifetime. */
  private async renew(): Promise<void> {
    if (this.unclosed.size === 0) {
      clearInterval(this.renewer);
      this.renewer = undefined;
      return;
    }
    await this.wallet.renewHolds([...this.unclosed], Date.now() + this.options.holdTtlMs).catch(() => undefined);
  }

  private retireStale(): void {
    const now = Date.now();
    for (const lease of [...this.current.values()]) {
      if (now - lease.lastUsedAt > this.options.idleMs || now - lease.openedAt > this.options.maxAgeMs) this.retire(lease);
    }
    if (this.current.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private retire(lease: Lease): void {
    if (lease.retired) return;
    lease.retired = true;
    if (this.current.get(lease.key) === lease) this.current.delete(lease.key);
    if (lease.inFlight === 0) this.close(lease);
  }

  private close(lease: Lease): void {
    this.unclosed.delete(lease.id);
    const close = { lease: lease.id, charged: lease.charged.toString() };
    // With nobody to carry it after the draws, close at once: the rest of the lease stays held for
    // the draws still to come, so the order does not matter.
    if (this.listeners.length === 0) void this.wallet.closeLeases([close]).catch(() => undefined);
    for (const listener of this.listeners) listener(close);
  }
}
