import type { HoldSettlement, LeaseClose } from '@gateway/contracts';
import type { ChainableCommander } from 'ioredis';
import type Redis from 'ioredis';
import { CLOSE_SCRIPT, CREDIT_SCRIPT, DRAW_SCRIPT, RESERVE_SCRIPT, SETTLE_SCRIPT } from './wallet-scripts';
import { WalletKeys } from './wallet-keys';

type Reply = Array<number | string>;

interface WalletCommands {
  /** Takes the number of keys first: five, then one per budget. */
  walletReserve(numKeys: number, ...keysAndArgs: string[]): Promise<Reply>;
  walletSettle(hold: string, holds: string, events: string, primary: string, ...args: string[]): Promise<Reply>;
  walletCredit(balance: string, primary: string, seed: string, delta: string): Promise<number>;
}

/**
 * A request's charge drawn from a lease: the ledger rows its caller writes (kind settle, −(charged −
 * overrun); kind overrun, −overrun when the request cost more than it was admitted for).
 */
export interface LeaseDraw {
  requestId: string;
  tenantId: string;
  pool: 'balance' | 'quota';
  charged: bigint;
  /** What the request was charged beyond what it was admitted for (0 when its settlement names no `held`). */
  overrun: bigint;
  /** What the request cost beyond the lease and the balance: written off, never charged. */
  writtenOff: bigint;
  /** The budget counters the lease was held against, comma-separated; absent when none. */
  budgets?: string;
}

type Pipelined = ChainableCommander & {
  walletSettle(...args: string[]): ChainableCommander;
  walletDraw(...args: string[]): ChainableCommander;
  walletClose(...args: string[]): ChainableCommander;
};

/** A lease's set of drawn requests lives as long as the lease can (the hold sweeper deletes only the hold). */
const DRAWS_TTL_SECONDS = String(24 * 3600);

/** Where a reservation draws: the prepaid balance, or a subscription period's quota counter. */
export type ReserveTarget = { mode: 'balance' } | { mode: 'quota'; unit: 'micros' | 'requests'; periodIndex: number; limit: bigint; ttlSeconds: number };

/** A budget counter a hold also draws on, in the same step as its balance or quota. */
export interface BudgetHold {
  /** See budgetCounterId: `key:<uuid>:d20261129`. */
  counterId: string;
  /** The budget's amount for a hard budget; null for a soft one (counted, never refusing). */
  limit: bigint | null;
  /** How long the counter outlives this moment: past its period's end; 0 for a total. */
  ttlSeconds: number;
}

export interface ReserveInput {
  requestId: string;
  tenantId: string;
  amount: bigint;
  holdTtlMs: number;
  target: ReserveTarget;
  /** Budgets held in the same step; the first that cannot fit the amount refuses the whole hold. */
  budgets?: readonly BudgetHold[];
  /** A lease: held for many requests, not ledgered itself (each request's draw is). */
  lease?: boolean;
}

/** An open hold as the wallet keeps it: a request's (ledgered) or a lease (not ledgered). */
export interface OpenHold {
  id: string;
  tenantId: string;
  amount: bigint;
  mode: string;
  /** The balance or quota counter it drew on. */
  key: string;
  ledgered: boolean;
  deadlineMs: number;
  /** The budget counters it drew on, by id (see budgetCounterId). */
  budgets: string[];
}

const HOLDS_CHUNK = 1000;

/** `conflict`: a hold under this request id exists for another tenant; it is left as it was. */
export type ReserveOutcome =
  | { status: 'reserved' }
  | { status: 'refused'; available: bigint }
  | { status: 'unseeded' }
  | { status: 'conflict' }
  /** `budget`: the index in ReserveInput.budgets of the budget that cannot fit the amount; `left` what it has left. */
  | { status: 'over_budget'; budget: number; left: bigint };

/**
 * The live wallet in Redis: spendable balances, quota counters, holds, and the event stream the
 * ledger consumer turns into rows. Every move is one script call (one round trip, atomic).
 */
export class WalletStore {
  private readonly redis: Redis & WalletCommands;

  constructor(
    redis: Redis,
    readonly keys: WalletKeys,
  ) {
    this.redis = redis as Redis & WalletCommands;
    // defineCommand loads the script once (EVALSHA, falling back to EVAL after a server restart).
    if (!('walletReserve' in redis)) {
      redis.defineCommand('walletReserve', { lua: RESERVE_SCRIPT });
      redis.defineCommand('walletSettle', { numberOfKeys: 4, lua: SETTLE_SCRIPT });
      redis.defineCommand('walletCredit', { numberOfKeys: 2, lua: CREDIT_SCRIPT });
      redis.defineCommand('walletDraw', { numberOfKeys: 4, lua: DRAW_SCRIPT });
      redis.defineCommand('walletClose', { numberOfKeys: 4, lua: CLOSE_SCRIPT });
    }
  }

  async reserve(input: ReserveInput): Promise<ReserveOutcome> {
    const { target } = input;
    const counter = target.mode === 'balance' ? this.keys.balance(input.tenantId) : this.keys.quota(input.tenantId, target.periodIndex, target.unit);
    // Request-count quotas are not money: they are metered in Redis but never ledgered.
    const ledgered = !input.lease && (target.mode === 'balance' || target.unit === 'micros');
    const budgets = input.budgets ?? [];
    const keys = [counter, this.keys.hold(input.requestId), this.keys.holds, this.keys.events, this.keys.primary];
    const args = [
      input.requestId,
      input.tenantId,
      input.amount.toString(),
      String(Date.now() + input.holdTtlMs),
      target.mode,
      target.mode === 'quota' ? target.limit.toString() : '0',
      target.mode === 'quota' ? String(target.ttlSeconds) : '0',
      target.mode,
      ledgered ? '1' : '0',
      target.mode === 'quota' ? `grant:${input.tenantId}:${target.periodIndex}:${target.unit}` : '',
    ];
    for (const budget of budgets) {
      keys.push(this.keys.budget(budget.counterId));
      args.push(budget.limit === null ? '-1' : budget.limit.toString(), String(budget.ttlSeconds));
    }
    const reply = await this.redis.walletReserve(keys.length, ...keys, ...args);
    if (Number(reply[0]) === 1) return { status: 'reserved' };
    if (Number(reply[0]) === -1) return { status: 'unseeded' };
    if (Number(reply[0]) === -2) return { status: 'conflict' };
    if (Number(reply[0]) === -3) return { status: 'over_budget', budget: Number(reply[1]) - 1, left: BigInt(reply[2] ?? 0) };
    return { status: 'refused', available: BigInt(reply[1] ?? 0) };
  }

  /**
   * Charges `actual` (beyond the hold too, as an overrun, as far as the balance reaches; the rest is
   * written off) and returns what was charged; null when no hold existed.
   */
  async settle(requestId: string, actual: bigint, note = ''): Promise<bigint | null> {
    return this.finish(requestId, actual, 'settle', note);
  }

  async release(requestId: string, note = ''): Promise<boolean> {
    return (await this.finish(requestId, 0n, 'release', note)) !== null;
  }

  /**
   * Ends many requests' billing in one round trip (a pipeline of scripts), each as its settlement says:
   * a hold settled or released (ledgered by its script), or a charge drawn from a lease, returned for
   * the caller to ledger. Each is idempotent (a hold ends once; a request draws once and a replay
   * returns the same draw), so a batch may be applied again after a crash.
   */
  async applySettlements(items: ReadonlyArray<{ requestId: string; settlement: HoldSettlement }>): Promise<LeaseDraw[]> {
    if (items.length === 0) return [];
    const pipeline = this.redis.pipeline() as Pipelined;
    for (const { requestId, settlement } of items) {
      if (settlement.action === 'draw') {
        const { lease, micros } = settlement;
        pipeline.walletDraw(
          this.keys.hold(lease),
          this.keys.leaseDraws(lease),
          this.keys.holds,
          this.keys.primary,
          requestId,
          micros,
          lease,
          DRAWS_TTL_SECONDS,
        );
      } else {
        const settle = settlement.action === 'settle';
        pipeline.walletSettle(
          this.keys.hold(requestId),
          this.keys.holds,
          this.keys.events,
          this.keys.primary,
          requestId,
          settle ? settlement.micros : '0',
          settlement.action,
          settle ? '' : 'failed',
        );
      }
    }
    const results = await this.exec(pipeline);
    const draws: LeaseDraw[] = [];
    items.forEach(({ requestId, settlement }, i) => {
      if (settlement.action !== 'draw') return;
      const [status, charged, tenantId, pool, written, budgets] = results[i] as Reply;
      const writtenOff = BigInt(written ?? 0);
      if (Number(status) === -1 || (BigInt(charged ?? 0) === 0n && writtenOff === 0n)) return;
      const total = BigInt(charged!);
      const held = settlement.held === undefined ? total : BigInt(settlement.held);
      const overrun = total > held ? total - held : 0n;
      const draw: LeaseDraw = { requestId, tenantId: String(tenantId), pool: pool === 'quota' ? 'quota' : 'balance', charged: total, overrun, writtenOff };
      if (budgets) draw.budgets = String(budgets);
      draws.push(draw);
    });
    return draws;
  }

  /** Closes leases whose requests have all ended: what is not owed to draws still coming goes back to the balance. */
  async closeLeases(closes: readonly LeaseClose[]): Promise<void> {
    if (closes.length === 0) return;
    const pipeline = this.redis.pipeline() as Pipelined;
    for (const { lease, charged } of closes)
      pipeline.walletClose(this.keys.hold(lease), this.keys.holds, this.keys.leaseDraws(lease), this.keys.primary, lease, charged);
    await this.exec(pipeline);
  }

  private async exec(pipeline: ChainableCommander): Promise<unknown[]> {
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0]!;
    return results.map(([, value]) => value);
  }

  /** Seeds the balance with `seed` when Redis has none, then adds `delta`; returns the new balance. */
  async credit(tenantId: string, seed: bigint, delta: bigint): Promise<bigint> {
    return BigInt(await this.redis.walletCredit(this.keys.balance(tenantId), this.keys.primary, seed.toString(), delta.toString()));
  }

  /** Sets the balance only when Redis has none (SET NX). */
  async seed(tenantId: string, micros: bigint): Promise<void> {
    await this.redis.set(this.keys.balance(tenantId), micros.toString(), 'NX');
  }

  async balance(tenantId: string): Promise<bigint | null> {
    const value = await this.redis.get(this.keys.balance(tenantId));
    return value === null ? null : BigInt(value);
  }

  /** What a budget counter holds now (charged and held in its period); 0 when its period has not opened. */
  async budgetUsed(counterId: string): Promise<bigint> {
    return BigInt((await this.redis.get(this.keys.budget(counterId))) ?? '0');
  }

  /** Budget counters by id (absent ones 0), in one round trip. */
  async budgetsUsed(counterIds: readonly string[]): Promise<Map<string, bigint>> {
    const used = new Map<string, bigint>();
    if (counterIds.length === 0) return used;
    const values = await this.redis.mget(...counterIds.map((id) => this.keys.budget(id)));
    counterIds.forEach((id, i) => used.set(id, BigInt(values[i] ?? '0')));
    return used;
  }

  /** Sets budget counters that Redis lacks (SET NX), keeping each period's lifetime: the wallet seeded from the ledger. */
  async seedBudgets(counters: ReadonlyArray<{ counterId: string; used: bigint; ttlSeconds: number }>): Promise<void> {
    if (counters.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const { counterId, used, ttlSeconds } of counters) {
      if (ttlSeconds > 0) pipeline.set(this.keys.budget(counterId), used.toString(), 'EX', ttlSeconds, 'NX');
      else pipeline.set(this.keys.budget(counterId), used.toString(), 'NX');
    }
    await this.exec(pipeline);
  }

  async quotaUsed(tenantId: string, periodIndex: number, unit: 'micros' | 'requests'): Promise<bigint> {
    return BigInt((await this.redis.get(this.keys.quota(tenantId, periodIndex, unit))) ?? '0');
  }

  /** Moves the deadline of holds that still exist to `deadlineMs` (a lease renewed while in use); gone ones stay gone. */
  async renewHolds(requestIds: readonly string[], deadlineMs: number): Promise<void> {
    if (requestIds.length === 0) return;
    await this.redis.zadd(this.keys.holds, 'XX', ...requestIds.flatMap((id) => [deadlineMs, id]));
  }

  /** Request ids of holds whose deadline has passed. */
  async dueHolds(now = Date.now(), limit = 500): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.holds, '-inf', now, 'LIMIT', 0, limit);
  }

  /** Every open hold, read in pipelined chunks. */
  async openHolds(): Promise<OpenHold[]> {
    const holds: OpenHold[] = [];
    const entries = await this.redis.zrange(this.keys.holds, 0, -1, 'WITHSCORES');
    for (let i = 0; i < entries.length; i += 2 * HOLDS_CHUNK) {
      const chunk: Array<{ id: string; deadlineMs: number }> = [];
      for (let j = i; j < Math.min(entries.length, i + 2 * HOLDS_CHUNK); j += 2) chunk.push({ id: entries[j]!, deadlineMs: Number(entries[j + 1]) });
      const pipeline = this.redis.pipeline();
      for (const { id } of chunk) pipeline.hmget(this.keys.hold(id), 'tenant', 'amount', 'mode', 'ledger', 'key', 'budgets');
      const replies = (await pipeline.exec()) ?? [];
      chunk.forEach(({ id, deadlineMs }, index) => {
        const [tenant, amount, mode, ledger, key, budgets] = (replies[index]?.[1] ?? []) as Array<string | null>;
        if (!tenant) return;
        holds.push({
          id,
          tenantId: tenant,
          amount: BigInt(amount ?? '0'),
          mode: mode ?? 'balance',
          key: key ?? '',
          ledgered: ledger === '1',
          deadlineMs,
          budgets: budgets ? budgets.split(',').map((k) => this.keys.budgetIdOf(k)) : [],
        });
      });
    }
    return holds;
  }

  async holdCount(): Promise<number> {
    return this.redis.zcard(this.keys.holds);
  }

  private async finish(requestId: string, actual: bigint, kind: 'settle' | 'release', note: string): Promise<bigint | null> {
    const reply = await this.redis.walletSettle(
      this.keys.hold(requestId),
      this.keys.holds,
      this.keys.events,
      this.keys.primary,
      requestId,
      actual.toString(),
      kind,
      note,
    );
    return Number(reply[0]) === 1 ? BigInt(reply[1] ?? 0) : null;
  }
}
