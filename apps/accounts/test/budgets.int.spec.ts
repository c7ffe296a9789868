import { WalletKeys, WalletStore } from '@gateway/billing';
import { BalanceView, BudgetShowReply, BudgetView, KeyContext, KeyCreated, ReconcileReport, SUBJECTS, TenantView, type BudgetRule } from '@gateway/contracts';
import { createHash, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { z } from 'zod';
import { budgetHoldsOf } from '@gateway/billing';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;

describe('budgets in accounts: settings, key contexts, seeding after a lost wallet, reconcile', () => {
  let h: AccountsHarness;
  let redis: Redis;
  let wallet: WalletStore;
  let tenantId: string;
  let key: KeyCreated;

  beforeAll(async () => {
    h = await startAccountsHarness('budgets');
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(h.bus.prefix));
    tenantId = (await h.bus.request(S.tenants.create, { slug: 'budgeted' }, TenantView)).id;
    await h.bus.request(S.balance.topup, { tenant: 'budgeted', amountMicros: '100000' }, BalanceView);
    await h.bus.request(S.projects.create, { tenant: 'budgeted', name: 'search' }, z.unknown());
    key = await h.bus.request(S.keys.create, { tenant: 'budgeted', name: 'ci', project: 'search' }, KeyCreated);
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await h?.stop();
  });

  const resolve = async () => (await h.bus.request(S.keys.resolve, { keyHash: createHash('sha256').update(key.key).digest('hex') }, KeyContext.nullable()))!;
  const reconcile = () => h.bus.request(S.money.reconcile, { tenant: 'budgeted' }, ReconcileReport);
  /** The budget findings alone: these charges have no usage records, which reconcile also names. */
  const budgetFindings = async () => (await reconcile()).tenants[0]!.findings.filter((finding) => finding.check === 'budget');

  it('carries the key budget and the project budget in the key context, key first', async () => {
    await h.bus.request(S.budgets.set, { key: key.id, amountMicros: '5000', period: 'day', mode: 'hard', alertAt: [80, 50] }, BudgetView);
    const project = await h.bus.request(
      S.budgets.set,
      { tenant: 'budgeted', project: 'search', amountMicros: '9000', period: 'total', mode: 'soft', alertAt: [100] },
      BudgetView,
    );
    expect(project).toMatchObject({ scope: 'project', project: 'search', key: null, amount: '0.009000', mode: 'soft', resetsAt: null, alertAt: [100] });
    const context = await resolve();
    expect(context.budgets).toEqual<BudgetRule[]>([
      { scope: 'key', scopeId: key.id, name: 'ci', amountMicros: '5000', period: 'day', mode: 'hard' },
      { scope: 'project', scopeId: expect.any(String) as string, name: 'search', amountMicros: '9000', period: 'total', mode: 'soft' },
    ]);
    const shown = await h.bus.request(S.budgets.show, { key: key.id }, BudgetShowReply);
    expect(shown.budget).toMatchObject({ alertAt: [50, 80], used: '0.000000', left: '0.005000' });
  });

  it('confines a console change to its own tenant', async () => {
    const refused = await h.bus
      .request(S.budgets.set, { key: key.id, amountMicros: '1', period: 'day', mode: 'hard', alertAt: [], owner: 'someone-else' }, BudgetView)
      .catch((error: unknown) => error);
    expect(String(refused)).toContain(`key "${key.id}" does not exist`);
  });

  it('seeds a lost wallet’s budget counters from the ledger with the balance, and reconcile proves them', async () => {
    const rules = (await resolve()).budgets;
    const holds = budgetHoldsOf(rules, Date.now());
    const requestId = randomUUID();
    expect(await wallet.reserve({ requestId, tenantId, amount: 1200n, holdTtlMs: 60_000, target: { mode: 'balance' }, budgets: holds })).toEqual({
      status: 'reserved',
    });
    expect(await wallet.settle(requestId, 700n)).toBe(700n);
    const settled = async () => {
      for (let i = 0; i < 100; i++) {
        const report = await reconcile();
        if (report.tenants[0]!.ledgerMicros === '99300') return report;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the ledger did not catch up');
    };
    await settled();
    expect(await budgetFindings()).toEqual([]);

    // Redis loses the wallet's keys: the balance and both budget counters.
    await redis.del(wallet.keys.balance(tenantId), ...holds.map((hold) => wallet.keys.budget(hold.counterId)));
    await h.bus.request(S.billing.seed, { tenantId }, z.unknown());
    expect(await wallet.balance(tenantId)).toBe(99_300n);
    expect(await wallet.budgetsUsed(holds.map((hold) => hold.counterId))).toEqual(new Map(holds.map((hold) => [hold.counterId, 700n])));
    expect(await budgetFindings()).toEqual([]);

    // A counter moved by hand is a finding naming it.
    await redis.incrby(wallet.keys.budget(holds[1]!.counterId), 5);
    expect(await budgetFindings()).toEqual([
      expect.objectContaining({
        check: 'budget',
        differenceMicros: '5',
        ids: [holds[1]!.counterId],
        message: expect.stringContaining('(project "search")') as string,
      }),
    ]);
  }, 30_000);
});
