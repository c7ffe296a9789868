import { budgetCounterId, budgetWindowOf, GatewayError, type BudgetRule } from '@gateway/contracts';
import Redis from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import { budgetExceeded, budgetHoldsOf, leaseDrawEvents, WalletEventReader, WalletKeys, WalletStore, type BudgetHold, type LedgerEvent } from '../src';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('budgets held in the same step as the balance, on a real Redis', () => {
  let redis: Redis;
  let keys: WalletKeys;
  let wallet: WalletStore;
  let reader: WalletEventReader;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    keys = new WalletKeys(`t${Date.now()}${randomBytes(3).toString('hex')}`);
    wallet = new WalletStore(redis, keys);
    reader = new WalletEventReader(redis, keys, 'spec');
    await reader.ensureGroup();
  });

  afterAll(async () => {
    const found = await redis.keys(`${keys.tag}*`);
    if (found.length) await redis.del(...found);
    redis.disconnect();
  });

  async function events(): Promise<LedgerEvent[]> {
    const entries = await reader.read(1000, 10);
    await reader.ack(entries.map((e) => e.id));
    return entries.map((e) => e.event!);
  }

  const rule = (scope: 'key' | 'project', amount: bigint, period: BudgetRule['period'] = 'day', mode: BudgetRule['mode'] = 'hard'): BudgetRule => ({
    scope,
    scopeId: randomUUID(),
    name: `${scope}-name`,
    amountMicros: amount.toString(),
    period,
    mode,
  });
  const reserve = (tenantId: string, amount: bigint, budgets: BudgetHold[], requestId = randomUUID()) =>
    wallet.reserve({ requestId, tenantId, amount, holdTtlMs: 60_000, target: { mode: 'balance' }, budgets });
  const funded = async (micros: bigint) => {
    const tenant = randomUUID();
    await wallet.seed(tenant, micros);
    return tenant;
  };

  it('lets exactly as many concurrent holds through as a hard key budget covers, and moves nothing for the rest', async () => {
    const tenant = await funded(1_000_000n);
    const key = rule('key', 300n);
    const holds = budgetHoldsOf([key], Date.now());
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => reserve(tenant, 100n, holds)));
    expect(outcomes.filter((o) => o.status === 'reserved')).toHaveLength(3);
    const refused = outcomes.filter((o) => o.status === 'over_budget');
    expect(refused).toHaveLength(27);
    expect(refused[0]).toEqual({ status: 'over_budget', budget: 0, left: 0n });
    expect(await wallet.balance(tenant)).toBe(1_000_000n - 300n);
    expect(await wallet.budgetUsed(holds[0]!.counterId)).toBe(300n);
  });

  it('holds a key budget and its project budget in one step: a refusal by either leaves the balance and the other untouched', async () => {
    const tenant = await funded(1_000_000n);
    const project = rule('project', 250n);
    const keyA = budgetHoldsOf([rule('key', 1000n), project], Date.now());
    const keyB = budgetHoldsOf([rule('key', 100n), project], Date.now());
    expect(await reserve(tenant, 100n, keyA)).toEqual({ status: 'reserved' });
    expect(await reserve(tenant, 100n, keyB)).toEqual({ status: 'reserved' });
    // Key B's own budget is spent; the project would have 50 left.
    expect(await reserve(tenant, 50n, keyB)).toEqual({ status: 'over_budget', budget: 0, left: 0n });
    // Key A's budget has room but the project has only 50 left.
    expect(await reserve(tenant, 100n, keyA)).toEqual({ status: 'over_budget', budget: 1, left: 50n });
    expect(await wallet.budgetsUsed([keyA[0]!.counterId, keyB[0]!.counterId, keyA[1]!.counterId])).toEqual(
      new Map([
        [keyA[0]!.counterId, 100n],
        [keyB[0]!.counterId, 100n],
        [keyA[1]!.counterId, 200n],
      ]),
    );
    expect(await wallet.balance(tenant)).toBe(1_000_000n - 200n);
  });

  it('refuses for the balance before any budget, and a soft budget counts without refusing', async () => {
    const tenant = await funded(150n);
    const soft = budgetHoldsOf([rule('key', 10n, 'month', 'soft')], Date.now());
    expect(await reserve(tenant, 100n, soft)).toEqual({ status: 'reserved' });
    expect(await reserve(tenant, 100n, soft)).toEqual({ status: 'refused', available: 50n });
    expect(await wallet.budgetUsed(soft[0]!.counterId)).toBe(100n);
  });

  it('settles each budget counter to what was charged, releases it whole, and names its counters on every ledger event', async () => {
    const tenant = await funded(1000n);
    const holds = budgetHoldsOf([rule('key', 500n), rule('project', 500n, 'total')], Date.now());
    await events();
    const settled = randomUUID();
    const released = randomUUID();
    expect(await reserve(tenant, 200n, holds, settled)).toEqual({ status: 'reserved' });
    expect(await reserve(tenant, 200n, holds, released)).toEqual({ status: 'reserved' });
    expect(await wallet.settle(settled, 70n)).toBe(70n);
    expect(await wallet.release(released)).toBe(true);
    for (const hold of holds) expect(await wallet.budgetUsed(hold.counterId)).toBe(70n);
    const ids = holds.map((h) => h.counterId).join(',');
    const recorded = (await events()).filter((e) => e.tenant === tenant);
    expect(recorded.map((e) => [e.kind, e.amount, e.budgets])).toEqual([
      ['reserve', '-200', ids],
      ['reserve', '-200', ids],
      ['settle', '130', ids],
      ['release', '200', ids],
    ]);
  });

  it('counts usage above the hold in the budget as the balance charges it', async () => {
    const tenant = await funded(1000n);
    const holds = budgetHoldsOf([rule('key', 500n)], Date.now());
    const id = randomUUID();
    await reserve(tenant, 100n, holds, id);
    expect(await wallet.settle(id, 160n)).toBe(160n);
    expect(await wallet.budgetUsed(holds[0]!.counterId)).toBe(160n);
    expect(await wallet.balance(tenant)).toBe(840n);
  });

  it('starts a new counter at the period boundary, and a total budget never does', async () => {
    const tenant = await funded(1_000_000n);
    const daily = rule('key', 100n, 'day');
    const total = rule('project', 150n, 'total');
    const lastMinute = Date.parse('2026-11-29T23:59:30Z');
    const nextDay = Date.parse('2026-11-30T00:00:30Z');
    expect(await reserve(tenant, 100n, budgetHoldsOf([daily, total], lastMinute))).toEqual({ status: 'reserved' });
    expect(await reserve(tenant, 1n, budgetHoldsOf([daily], lastMinute))).toEqual({ status: 'over_budget', budget: 0, left: 0n });
    // The next UTC day opens a fresh counter for the daily budget; the total one carries on.
    expect(await reserve(tenant, 40n, budgetHoldsOf([daily, total], nextDay))).toEqual({ status: 'reserved' });
    expect(await reserve(tenant, 40n, budgetHoldsOf([daily, total], nextDay))).toEqual({ status: 'over_budget', budget: 1, left: 10n });
    const [before, after] = [budgetWindowOf('day', lastMinute), budgetWindowOf('day', nextDay)];
    expect(await wallet.budgetUsed(budgetCounterId('key', daily.scopeId, before))).toBe(100n);
    expect(await wallet.budgetUsed(budgetCounterId('key', daily.scopeId, after))).toBe(40n);
    expect(await wallet.budgetUsed(budgetCounterId('project', total.scopeId, budgetWindowOf('total', nextDay)))).toBe(140n);
    expect(await redis.ttl(keys.budget(budgetCounterId('project', total.scopeId, budgetWindowOf('total', nextDay))))).toBe(-1);
    expect(await redis.ttl(keys.budget(budgetCounterId('key', daily.scopeId, after)))).toBeGreaterThan(0);
  });

  it('keeps a lease held against budgets on their counters: draws within it, beyond it from the balance, and what goes back', async () => {
    const tenant = await funded(1000n);
    const holds = budgetHoldsOf([rule('key', 10_000n), rule('project', 10_000n, 'total')], Date.now());
    const lease = `lease:${randomUUID()}`;
    expect(
      await wallet.reserve({ requestId: lease, tenantId: tenant, amount: 300n, holdTtlMs: 60_000, target: { mode: 'balance' }, lease: true, budgets: holds }),
    ).toEqual({
      status: 'reserved',
    });
    const used = async () => [...(await wallet.budgetsUsed(holds.map((h) => h.counterId))).values()];
    expect(await used()).toEqual([300n, 300n]);
    // 120 within the lease moves no counter; 250 more takes 180 from the lease and 70 from the balance.
    const within = await wallet.applySettlements([{ requestId: 'a', settlement: { action: 'draw', lease, micros: '120', held: '150' } }]);
    expect(within).toEqual([expect.objectContaining({ charged: 120n, budgets: holds.map((h) => h.counterId).join(',') })]);
    expect(await used()).toEqual([300n, 300n]);
    await wallet.applySettlements([{ requestId: 'b', settlement: { action: 'draw', lease, micros: '250', held: '150' } }]);
    expect(await used()).toEqual([370n, 370n]);
    expect(await wallet.balance(tenant)).toBe(630n);
    // A replayed draw answers with the same counters and moves nothing.
    const replay = await wallet.applySettlements([{ requestId: 'b', settlement: { action: 'draw', lease, micros: '250', held: '150' } }]);
    expect(replay[0]?.budgets).toBe(holds.map((h) => h.counterId).join(','));
    expect(await used()).toEqual([370n, 370n]);
    // Closed with all 370 drawn: the lease is empty, nothing goes back, and each counter is what was charged.
    await wallet.closeLeases([{ lease, charged: '370' }]);
    expect(await used()).toEqual([370n, 370n]);
    const events = within.flatMap(leaseDrawEvents);
    expect(events.every((e) => e.budgets === holds.map((h) => h.counterId).join(','))).toBe(true);
  });

  it('gives back what a closed lease did not use to its budget counters as to the balance', async () => {
    const tenant = await funded(1000n);
    const holds = budgetHoldsOf([rule('key', 10_000n)], Date.now());
    const lease = `lease:${randomUUID()}`;
    await wallet.reserve({ requestId: lease, tenantId: tenant, amount: 500n, holdTtlMs: 60_000, target: { mode: 'balance' }, lease: true, budgets: holds });
    await wallet.applySettlements([{ requestId: 'x', settlement: { action: 'draw', lease, micros: '40', held: '100' } }]);
    // Closed owing one more draw of 60: 400 goes back now, 60 stays held for it.
    await wallet.closeLeases([{ lease, charged: '100' }]);
    expect(await wallet.budgetUsed(holds[0]!.counterId)).toBe(100n);
    expect(await wallet.balance(tenant)).toBe(900n);
    await wallet.applySettlements([{ requestId: 'y', settlement: { action: 'draw', lease, micros: '60', held: '100' } }]);
    expect(await wallet.budgetUsed(holds[0]!.counterId)).toBe(100n);
    // A lease the sweeper releases gives its counters back too.
    const swept = `lease:${randomUUID()}`;
    await wallet.reserve({ requestId: swept, tenantId: tenant, amount: 200n, holdTtlMs: 60_000, target: { mode: 'balance' }, lease: true, budgets: holds });
    expect(await wallet.budgetUsed(holds[0]!.counterId)).toBe(300n);
    expect(await wallet.release(swept)).toBe(true);
    expect(await wallet.budgetUsed(holds[0]!.counterId)).toBe(100n);
    expect(await wallet.balance(tenant)).toBe(900n);
  });

  it('names the budget, what is left and when it resets in the refusal', () => {
    const now = Date.parse('2026-11-29T12:00:00Z');
    const error = budgetExceeded({ ...rule('key', 2_500_000n, 'week'), name: 'ci' }, 300_000n, now);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.code).toBe('budget_exceeded');
    expect(error.message).toBe('This request does not fit the budget of API key "ci": 2.50 per week, 0.30 left; it resets at 2026-11-30T00:00:00.000Z.');
    expect(error.retryAfterSeconds).toBe(12 * 3600);
    expect(budgetExceeded({ ...rule('project', 1_000_000n, 'total'), name: 'search' }, 0n, now).message).toContain(
      'project "search": 1.00 in total, 0.00 left; it never resets.',
    );
  });
});
