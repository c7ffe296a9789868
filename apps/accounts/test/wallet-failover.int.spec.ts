import { WalletKeys, WalletStore, type BudgetHold, type ReserveInput } from '@gateway/billing';
import { BalanceView, BudgetView, KeyCreated, ReconcileReport, SUBJECTS, TenantView } from '@gateway/contracts';
import { createRedis, isRedisFault, loadEnv, RedisEnv } from '@gateway/platform';
import { startRedisSentinelCluster, type RedisSentinelCluster } from '@gateway/platform/testing';
import type Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;
const PASSWORD = 'wallet-failover-spec';
const SETTINGS = ['REDIS_SENTINELS', 'REDIS_SENTINEL_NAME', 'REDIS_PASSWORD', 'BILLING_SWEEP_INTERVAL_MS'] as const;

/** Polls `probe` until it returns a value, or fails with `what` after the deadline. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 60_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${deadlineMs} ms`);
    await sleep(200);
  }
}

describe('the wallet across a Sentinel failover that loses the newest writes', () => {
  let cluster: RedisSentinelCluster;
  let h: AccountsHarness;
  let redis: Redis;
  let wallet: WalletStore;
  let tenantId: string;
  /** The payer key's total budget, which requests a and b are also held against. */
  let budget: BudgetHold;
  const before = Object.fromEntries(SETTINGS.map((name) => [name, process.env[name]]));

  beforeAll(async () => {
    cluster = await startRedisSentinelCluster({ password: PASSWORD });
    Object.assign(process.env, { REDIS_SENTINELS: cluster.sentinels, REDIS_SENTINEL_NAME: cluster.name, REDIS_PASSWORD: PASSWORD });
    // Hold deadlines are far off: nothing here is released by the sweeper.
    process.env.BILLING_SWEEP_INTERVAL_MS = '60000';
    h = await startAccountsHarness('wallet_failover');
    // The chat side of the wallet, on the same settings.
    redis = createRedis(loadEnv(RedisEnv), 'spec-chat');
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(h.bus.prefix));
    tenantId = (await h.bus.request(S.tenants.create, { slug: 'payer' }, TenantView)).id;
    await h.bus.request(S.balance.topup, { tenant: 'payer', amountMicros: '10000' }, BalanceView);
    const key = await h.bus.request(S.keys.create, { tenant: 'payer' }, KeyCreated);
    await h.bus.request(S.budgets.set, { key: key.id, amountMicros: '100000', period: 'total', mode: 'hard', alertAt: [50] }, BudgetView);
    budget = { counterId: `key:${key.id}:t`, limit: 100_000n, ttlSeconds: 0 };
  }, 120_000);

  afterAll(async () => {
    redis?.disconnect();
    await h?.stop();
    for (const name of SETTINGS) {
      if (before[name] === undefined) delete process.env[name];
      else process.env[name] = before[name];
    }
    await cluster?.stop();
  });

  const reconcile = (request: { tenant: string } | { all: true }) => h.bus.request(S.money.reconcile, request, ReconcileReport);
  const ledgerShows = (micros: bigint) =>
    until(`the ledger at ${micros}`, async () => ((await reconcile({ tenant: 'payer' })).tenants[0]!.ledgerMicros === micros.toString() ? true : undefined));
  const hold = (requestId: string, amount: bigint, lease = false, budgets: BudgetHold[] = []): ReserveInput => ({
    requestId,
    tenantId,
    amount,
    holdTtlMs: 3_600_000,
    target: { mode: 'balance' },
    lease,
    budgets,
  });

  it('refuses every money move, and serves none beyond the balance, until the wallet is rebuilt from the ledger', async () => {
    // Replicated to both nodes: a request's hold (ledgered) and a chat process's lease (not ledgered).
    expect(await wallet.reserve(hold('req-a', 3000n, false, [budget]))).toEqual({ status: 'reserved' });
    expect(await wallet.reserve(hold('lease:l', 1000n, true))).toEqual({ status: 'reserved' });
    await ledgerShows(7000n);
    expect(await redis.wait(1, 5000)).toBe(1);

    // Written to the primary and the ledger only: request a ends, request b is held.
    const primary = await cluster.primaryPort();
    const replica = cluster.ports.find((port) => port !== primary)!;
    await cluster.isolate(replica);
    expect(await wallet.release('req-a')).toBe(true);
    expect(await wallet.reserve(hold('req-b', 5000n, false, [budget]))).toEqual({ status: 'reserved' });
    await ledgerShows(5000n);

    await cluster.kill(primary);
    await cluster.rejoin(replica);
    expect(await cluster.promoted(primary)).toBe(replica);

    // The promoted replica still says 6000 spendable (a open, b unknown); the books say 4000 (5000 less the lease).
    const outcomes: string[] = [];
    const rebuilt = await until('a balance the ledger explains', async () => {
      try {
        const outcome = await wallet.reserve(hold(`probe-${outcomes.length}`, 4001n));
        outcomes.push(outcome.status);
        return outcome.status === 'refused' ? outcome : undefined;
      } catch (error) {
        if (!isRedisFault(error)) throw error;
        outcomes.push((error as Error).message.startsWith('TRYAGAIN') ? 'rebuilding' : 'unreachable');
        return undefined;
      }
    });
    expect(outcomes).not.toContain('reserved');
    expect(rebuilt).toEqual({ status: 'refused', available: 4000n });
    expect(await wallet.balance(tenantId)).toBe(4000n);
    const holds = await wallet.openHolds();
    expect(holds.map((h) => h.id).sort()).toEqual(['lease:l', 'req-b']);
    // The budget counter is what the ledger charged it (b still held), not the replica's stale 3000.
    expect(await wallet.budgetUsed(budget.counterId)).toBe(5000n);

    // The restored hold ends as any hold does, the lease goes back, and the books agree without an operator.
    expect(await wallet.release('req-b')).toBe(true);
    expect(await wallet.budgetUsed(budget.counterId)).toBe(0n);
    await wallet.closeLeases([{ lease: 'lease:l', charged: '0' }]);
    expect(await wallet.balance(tenantId)).toBe(10000n);
    // Reconcile counts the stream's unread entries as pending, so it agrees before the ledger has caught up.
    const report = await until('reconcile --all at 0, the ledger caught up', async () => {
      const all = await reconcile({ all: true });
      const payer = all.tenants.find((t) => t.tenant === 'payer');
      return all.ok && payer?.ledgerMicros === '10000' ? all : undefined;
    });
    expect(report.tenants.find((t) => t.tenant === 'payer')).toMatchObject({ ledgerMicros: '10000', walletMicros: '10000', findings: [] });
  }, 180_000);

  it('refuses a move on a server the wallet was not found whole on, until accounts rebuilds it', async () => {
    // As a restart from disk looks: the mark names a server that no longer answers. A rebuild takes a
    // lock, the stream and Postgres reads, far longer than the one round trip to the next move.
    await redis.set(WalletKeys.fromPrefix(h.bus.prefix).primary, 'another-server');
    await expect(wallet.reserve(hold('req-c', 1n))).rejects.toThrow(/^TRYAGAIN/);
    await until('the rebuild', async () => ((await wallet.reserve(hold('req-c', 1n))).status === 'reserved' ? true : undefined), 30_000);
    expect(await wallet.release('req-c')).toBe(true);
  }, 60_000);
});
