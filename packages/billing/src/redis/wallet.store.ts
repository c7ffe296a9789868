import type Redis from 'ioredis';
import { CREDIT_SCRIPT, RESERVE_SCRIPT, SETTLE_SCRIPT } from './wallet-scripts';
import { WalletKeys } from './wallet-keys';

type Reply = Array<number | string>;

interface WalletCommands {
  walletReserve(target: string, hold: string, holds: string, events: string, ...args: string[]): Promise<Reply>;
  walletSettle(hold: string, holds: string, events: string, ...args: string[]): Promise<Reply>;
  walletCredit(balance: string, seed: string, delta: string): Promise<number>;
}

/** Where a reservation draws: the prepaid balance, or a subscription period's quota counter. */
export type ReserveTarget =
  | { mode: 'balance' }
  | { mode: 'quota'; unit: 'micros' | 'requests'; periodIndex: number; limit: bigint; ttlSeconds: number };

export interface ReserveInput {
  requestId: string;
  tenantId: string;
  amount: bigint;
  holdTtlMs: number;
  target: ReserveTarget;
}

export type ReserveOutcome = { status: 'reserved' } | { status: 'refused'; available: bigint } | { status: 'unseeded' };

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
      redis.defineCommand('walletReserve', { numberOfKeys: 4, lua: RESERVE_SCRIPT });
      redis.defineCommand('walletSettle', { numberOfKeys: 3, lua: SETTLE_SCRIPT });
      redis.defineCommand('walletCredit', { numberOfKeys: 1, lua: CREDIT_SCRIPT });
    }
  }

  async reserve(input: ReserveInput): Promise<ReserveOutcome> {
    const { target } = input;
    const counter = target.mode === 'balance' ? this.keys.balance(input.tenantId) : this.keys.quota(input.tenantId, target.periodIndex, target.unit);
    // Request-count quotas are not money: they are metered in Redis but never ledgered.
    const ledgered = target.mode === 'balance' || target.unit === 'micros';
    const reply = await this.redis.walletReserve(
      counter,
      this.keys.hold(input.requestId),
      this.keys.holds,
      this.keys.events,
      input.requestId,
      input.tenantId,
      input.amount.toString(),
      String(Date.now() + input.holdTtlMs),
      target.mode,
      target.mode === 'quota' ? target.limit.toString() : '0',
      target.mode === 'quota' ? String(target.ttlSeconds) : '0',
      target.mode,
      ledgered ? '1' : '0',
    );
    if (Number(reply[0]) === 1) return { status: 'reserved' };
    if (Number(reply[0]) === -1) return { status: 'unseeded' };
    return { status: 'refused', available: BigInt(reply[1] ?? 0) };
  }

  /** Charges `actual` (at most what was held) and returns the rest; null when no hold existed. */
  async settle(requestId: string, actual: bigint, note = ''): Promise<bigint | null> {
    return this.finish(requestId, actual, 'settle', note);
  }

  async release(requestId: string, note = ''): Promise<boolean> {
    return (await this.finish(requestId, 0n, 'release', note)) !== null;
  }

  /** Seeds the balance with `seed` when Redis has none, then adds `delta`; returns the new balance. */
  async credit(tenantId: string, seed: bigint, delta: bigint): Promise<bigint> {
    return BigInt(await this.redis.walletCredit(this.keys.balance(tenantId), seed.toString(), delta.toString()));
  }

  /** Sets the balance only when Redis has none (SET NX). */
  async seed(tenantId: string, micros: bigint): Promise<void> {
    await this.redis.set(this.keys.balance(tenantId), micros.toString(), 'NX');
  }

  async balance(tenantId: string): Promise<bigint | null> {
    const value = await this.redis.get(this.keys.balance(tenantId));
    return value === null ? null : BigInt(value);
  }

  async quotaUsed(tenantId: string, periodIndex: number, unit: 'micros' | 'requests'): Promise<bigint> {
    return BigInt((await this.redis.get(this.keys.quota(tenantId, periodIndex, unit))) ?? '0');
  }

  /** Request ids of holds whose deadline has passed. */
  async dueHolds(now = Date.now(), limit = 500): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.holds, '-inf', now, 'LIMIT', 0, limit);
  }

  async holdCount(): Promise<number> {
    return this.redis.zcard(this.keys.holds);
  }

  private async finish(requestId: string, actual: bigint, kind: 'settle' | 'release', note: string): Promise<bigint | null> {
    const reply = await this.redis.walletSettle(this.keys.hold(requestId), this.keys.holds, this.keys.events, requestId, actual.toString(), kind, note);
    return Number(reply[0]) === 1 ? BigInt(reply[1] ?? 0) : null;
  }
}
