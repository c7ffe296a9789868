import type Redis from 'ioredis';
import type { WalletKeys } from './wallet-keys';

/**
 * KEYS: primary. Returns {runId, mark} of the server answering; a wallet with no mark yet (new, or wiped
 * clean, whose balances are seeded from the stored ones as they are asked for) is marked whole as it is.
 */
const PRIMARY_SCRIPT = `
local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
local mark = redis.call('GET', KEYS[1])
if not mark then
  redis.call('SET', KEYS[1], run)
  mark = run
end
return {run, mark}
`;

/**
 * KEYS: primary, rebuild lock. ARGV: runId rebuilt on, lock token. Marks the wallet whole on `runId` (lifting
 * the fence) only while that server still answers and the lock is still the caller's. Returns 1 when lifted.
 */
const LIFT_SCRIPT = `
if string.match(redis.call('INFO', 'server'), 'run_id:(%x+)') ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2])
return 1
`;

/** A request's balance hold the ledger shows reserved and never ended, which the server answering lacks. */
export interface LostHold {
  requestId: string;
  tenantId: string;
  amount: bigint;
  /** The budget counters it drew on (see budgetCounterId). */
  budgets?: readonly string[];
}

/** A budget counter as the ledger says it stands: what its period was charged, holds still open included. */
export interface BudgetCounter {
  counterId: string;
  used: bigint;
  /** 0: a total, kept for good. */
  ttlSeconds: number;
}

/** What a rebuild writes while the wallet is fenced. */
export interface WalletRebuild {
  /** Each tenant's spendable balance: stored balance less its open leases. */
  balances: ReadonlyMap<string, bigint>;
  /** Holds the ledger has open that the server lost, held again until `deadlineMs`. */
  restore: readonly LostHold[];
  /** Request ids of holds the server still has that the ledger has ended. */
  drop: readonly string[];
  /** Every budget's current counter, written over whatever the server has. */
  budgets?: readonly BudgetCounter[];
  deadlineMs: number;
}

interface PrimaryCommands {
  walletPrimary(primary: string): Promise<[string, string]>;
  walletLift(primary: string, lock: string, runId: string, token: string): Promise<number>;
}

/**
 * Which Redis server answers for the wallet, and the writes of a rebuild on a new one. Every money move
 * refuses while the server is not the one the wallet was last found whole on (see the scripts' fence).
 */
export class WalletPrimary {
  private readonly redis: Redis & PrimaryCommands;

  constructor(
    redis: Redis,
    readonly keys: WalletKeys,
  ) {
    this.redis = redis as Redis & PrimaryCommands;
    if (!('walletPrimary' in redis)) {
      redis.defineCommand('walletPrimary', { numberOfKeys: 1, lua: PRIMARY_SCRIPT });
      redis.defineCommand('walletLift', { numberOfKeys: 2, lua: LIFT_SCRIPT });
    }
  }

  /** The run id of the server answering, and whether the wallet must be rebuilt on it. */
  async check(): Promise<{ runId: string; rebuild: boolean }> {
    const [runId, mark] = await this.redis.walletPrimary(this.keys.primary);
    return { runId, rebuild: runId !== mark };
  }

  /** One accounts replica rebuilds at a time; true when this one took the lock. */
  async lock(token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.rebuildLock, token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async unlock(token: string): Promise<void> {
    if ((await this.redis.get(this.keys.rebuildLock)) === token) await this.redis.del(this.keys.rebuildLock);
  }

  async write(rebuild: WalletRebuild): Promise<void> {
    const pipeline = this.redis.multi();
    for (const [tenantId, micros] of rebuild.balances) pipeline.set(this.keys.balance(tenantId), micros.toString());
    for (const { requestId, tenantId, amount, budgets } of rebuild.restore) {
      pipeline.hset(this.keys.hold(requestId), {
        tenant: tenantId,
        key: this.keys.balance(tenantId),
        amount: amount.toString(),
        mode: 'balance',
        pool: 'balance',
        ledger: '1',
        limit: '0',
        ...(budgets?.length ? { budgets: budgets.map((id) => this.keys.budget(id)).join(',') } : {}),
      });
      pipeline.zadd(this.keys.holds, rebuild.deadlineMs, requestId);
    }
    for (const { counterId, used, ttlSeconds } of rebuild.budgets ?? []) {
      if (ttlSeconds > 0) pipeline.set(this.keys.budget(counterId), used.toString(), 'EX', ttlSeconds);
      else pipeline.set(this.keys.budget(counterId), used.toString());
    }
    for (const requestId of rebuild.drop) pipeline.del(this.keys.hold(requestId)).zrem(this.keys.holds, requestId);
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0]!;
  }

  /** Lifts the fence: money moves again on `runId`, unless another server answers by now or the lock was lost. */
  async lift(runId: string, token: string): Promise<boolean> {
    return (await this.redis.walletLift(this.keys.primary, this.keys.rebuildLock, runId, token)) === 1;
  }
}
