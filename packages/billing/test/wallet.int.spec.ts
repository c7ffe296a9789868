import Redis from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import { DRAWS_REPLAY_SECONDS } from '../src/redis/wallet-scripts';
import { leaseDrawEvents, WalletEventReader, WalletKeys, WalletStore, type LedgerEvent } from '../src';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('wallet scripts on a real Redis', () => {
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

  const reserve = (requestId: string, tenantId: string, amount: bigint, holdTtlMs = 60_000) =>
    wallet.reserve({ requestId, tenantId, amount, holdTtlMs, target: { mode: 'balance' } });

  it('refuses an unseeded balance, then never lets concurrent holds exceed it', async () => {
    const tenant = randomUUID();
    expect(await reserve('r0', tenant, 1n)).toEqual({ status: 'unseeded' });
    await wallet.seed(tenant, 1000n);
    const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => reserve(`${tenant}-${i}`, tenant, 100n)));
    expect(outcomes.filter((o) => o.status === 'reserved')).toHaveLength(10);
    expect(outcomes.filter((o) => o.status === 'refused')).toHaveLength(30);
    expect(await wallet.balance(tenant)).toBe(0n);
    const recorded = await events();
    expect(recorded).toHaveLength(10);
    expect(recorded.every((e) => e.kind === 'reserve' && e.amount === '-100' && e.tenant === tenant)).toBe(true);
  });

  it('settles at actual usage exactly once, charging usage above the hold as far as the balance reaches and writing off the rest', async () => {
    const tenant = randomUUID();
    await wallet.seed(tenant, 1000n);
    await reserve('s1', tenant, 300n);
    await reserve('s2', tenant, 300n);
    expect(await wallet.settle('s1', 120n)).toBe(120n);
    expect(await wallet.settle('s1', 120n)).toBeNull();
    // 580 was left beside s2's hold of 300: 880 of its 999 is charged, the other 119 written off.
    expect(await wallet.settle('s2', 999n)).toBe(880n);
    expect(await wallet.settle('s2', 999n)).toBeNull();
    expect(await wallet.release('s2')).toBe(false);
    // The balance stops at zero.
    expect(await wallet.balance(tenant)).toBe(0n);
    const recorded = (await events()).filter((e) => e.tenant === tenant);
    expect(recorded.map((e) => [e.rid, e.kind, e.amount])).toEqual([
      ['s1', 'reserve', '-300'],
      ['s2', 'reserve', '-300'],
      ['s1', 'settle', '180'],
      ['s2', 'settle', '0'],
      ['s2', 'overrun', '-580'],
      ['s2', 'write_off', '0'],
    ]);
    expect(recorded.at(-1)?.note).toBe('written off: 119 of usage above the hold of 300 and the balance');
    const sum = recorded.reduce((acc, e) => acc + BigInt(e.amount), 0n);
    expect(sum).toBe(-1000n);
  });

  it('never takes a balance below zero: an overrun beyond it is written off, and reservations wait for a top-up', async () => {
    const tenant = randomUUID();
    await wallet.seed(tenant, 100n);
    await reserve('o1', tenant, 100n);
    expect(await wallet.settle('o1', 250n)).toBe(100n);
    expect(await wallet.balance(tenant)).toBe(0n);
    expect(await reserve('o2', tenant, 1n)).toEqual({ status: 'refused', available: 0n });
    expect(await wallet.credit(tenant, 0n, 10n)).toBe(10n);
    expect(await reserve('o5', tenant, 10n)).toEqual({ status: 'reserved' });
    const recorded = (await events()).filter((e) => e.tenant === tenant && e.rid === 'o1');
    expect(recorded.map((e) => [e.kind, e.amount])).toEqual([
      ['reserve', '-100'],
      ['settle', '0'],
      ['write_off', '0'],
    ]);
  });

  it("charges a credit quota's overrun to its period counter and ledgers it in the quota pool", async () => {
    const tenant = randomUUID();
    const target = { mode: 'quota', unit: 'micros', periodIndex: 0, limit: 1000n, ttlSeconds: 60 } as const;
    expect(await wallet.reserve({ requestId: 'q1', tenantId: tenant, amount: 200n, holdTtlMs: 60_000, target })).toEqual({ status: 'reserved' });
    expect(await wallet.settle('q1', 500n)).toBe(500n);
    expect(await wallet.quotaUsed(tenant, 0, 'micros')).toBe(500n);
    const recorded = (await events()).filter((e) => e.tenant === tenant && e.rid === 'q1');
    expect(recorded.map((e) => [e.kind, e.pool, e.amount])).toEqual([
      ['reserve', 'quota', '-200'],
      ['settle', 'quota', '0'],
      ['overrun', 'quota', '-300'],
    ]);
    // Beyond the period's limit nothing is drawn: the counter stops at the limit and the rest is written off.
    await wallet.reserve({ requestId: 'q2', tenantId: tenant, amount: 200n, holdTtlMs: 60_000, target });
    expect(await wallet.settle('q2', 900n)).toBe(500n);
    expect(await wallet.quotaUsed(tenant, 0, 'micros')).toBe(1000n);
    const second = (await events()).filter((e) => e.tenant === tenant && e.rid === 'q2');
    expect(second.map((e) => [e.kind, e.pool, e.amount])).toEqual([
      ['reserve', 'quota', '-200'],
      ['settle', 'quota', '0'],
      ['overrun', 'quota', '-300'],
      ['write_off', 'quota', '0'],
    ]);
  });

  it("answers 'already held' only to the hold's own tenant; another tenant's reserve under its id is a conflict that moves nothing", async () => {
    const owner = randomUUID();
    const other = randomUUID();
    await wallet.seed(owner, 1000n);
    await wallet.seed(other, 1000n);
    const shared = `shared-${randomUUID()}`;
    expect(await reserve(shared, owner, 400n)).toEqual({ status: 'reserved' });
    await events();
    const hold = await redis.hgetall(keys.hold(shared));

    expect(await reserve(shared, owner, 400n)).toEqual({ status: 'reserved' });
    expect(await reserve(shared, other, 400n)).toEqual({ status: 'conflict' });
    // The other tenant with no funds at all is refused the same way, never waved through.
    expect(await reserve(shared, randomUUID(), 400n)).toEqual({ status: 'conflict' });

    expect(await redis.hgetall(keys.hold(shared))).toEqual(hold);
    expect(await wallet.balance(owner)).toBe(600n);
    expect(await wallet.balance(other)).toBe(1000n);
    expect(await events()).toEqual([]);
    expect(await wallet.settle(shared, 100n)).toBe(100n);
    expect(await wallet.balance(owner)).toBe(900n);
    await events();
  });

  it('lists holds past their deadline, and a release returns them whole', async () => {
    const tenant = randomUUID();
    await wallet.seed(tenant, 500n);
    await reserve('late', tenant, 200n, 1);
    await reserve('fresh', tenant, 100n, 60_000);
    await new Promise((r) => setTimeout(r, 5));
    expect(await wallet.dueHolds()).toContain('late');
    expect(await wallet.dueHolds()).not.toContain('fresh');
    expect(await wallet.release('late', 'expired')).toBe(true);
    expect(await wallet.balance(tenant)).toBe(400n);
    expect(await wallet.dueHolds()).not.toContain('late');
  });

  it('meters a per-period quota without touching the balance', async () => {
    const tenant = randomUUID();
    const target = { mode: 'quota', unit: 'requests', periodIndex: 7, limit: 2n, ttlSeconds: 60 } as const;
    const results = [];
    for (const id of ['q1', 'q2', 'q3'])
      results.push((await wallet.reserve({ requestId: `${tenant}${id}`, tenantId: tenant, amount: 1n, holdTtlMs: 60_000, target })).status);
    expect(results).toEqual(['reserved', 'reserved', 'refused']);
    await wallet.release(`${tenant}q2`);
    expect(await wallet.quotaUsed(tenant, 7, 'requests')).toBe(1n);
    expect(
      (await wallet.reserve({ requestId: `${tenant}q4`, tenantId: tenant, amount: 1n, holdTtlMs: 60_000, target: { ...target, periodIndex: 8 } })).status,
    ).toBe('reserved');
    expect(await wallet.balance(tenant)).toBeNull();
  });

  it("ledgers a credit quota's grant once per period, then what its requests consume", async () => {
    const tenant = randomUUID();
    await events();
    const target = { mode: 'quota', unit: 'micros', periodIndex: 3, limit: 1000n, ttlSeconds: 60 } as const;
    for (const id of ['g1', 'g2']) await wallet.reserve({ requestId: `${tenant}${id}`, tenantId: tenant, amount: 100n, holdTtlMs: 60_000, target });
    await wallet.settle(`${tenant}g1`, 40n);
    await wallet.reserve({ requestId: `${tenant}g3`, tenantId: tenant, amount: 100n, holdTtlMs: 60_000, target: { ...target, periodIndex: 4 } });
    const seen = (await events()).filter((e) => e.tenant === tenant);
    expect(seen.filter((e) => e.kind === 'plan_grant')).toEqual([
      expect.objectContaining({ rid: `grant:${tenant}:3:micros`, pool: 'quota', amount: '1000' }),
      expect.objectContaining({ rid: `grant:${tenant}:4:micros`, pool: 'quota', amount: '1000' }),
    ]);
    // Period 3: granted 1000, g1 charged 40, g2 still holds 100.
    const period3 = seen.filter((e) => e.rid.startsWith(tenant) && e.rid !== `${tenant}g3`).reduce((sum, e) => sum + BigInt(e.amount), 0n);
    expect(1000n + period3).toBe(1000n - 40n - 100n);
  });

  it('credits a top-up on top of the seed once', async () => {
    const tenant = randomUUID();
    expect(await wallet.credit(tenant, 50n, 25n)).toBe(75n);
    expect(await wallet.credit(tenant, 50n, 25n)).toBe(100n);
  });

  it('draws requests from a lease once each, answering a replay with the same draw, and a close returns the rest', async () => {
    const tenant = randomUUID();
    await wallet.credit(tenant, 0n, 1000n);
    await events();
    const lease = `lease:${randomUUID()}`;
    expect(
      (await wallet.reserve({ requestId: lease, tenantId: tenant, amount: 600n, holdTtlMs: 60_000, target: { mode: 'balance' }, lease: true })).status,
    ).toBe('reserved');
    expect(await wallet.balance(tenant)).toBe(400n);

    const draw = (requestId: string, micros: string) => wallet.applySettlements([{ requestId, settlement: { action: 'draw', lease, micros } }]);
    expect(await draw('r1', '100')).toEqual([{ requestId: 'r1', tenantId: tenant, pool: 'balance', charged: 100n, overrun: 0n, writtenOff: 0n }]);
    expect(await draw('r2', '50')).toEqual([{ requestId: 'r2', tenantId: tenant, pool: 'balance', charged: 50n, overrun: 0n, writtenOff: 0n }]);
    // A replay (the writer crashed before its ledger rows) answers the first draw and moves nothing.
    expect(await draw('r1', '999')).toEqual([{ requestId: 'r1', tenantId: tenant, pool: 'balance', charged: 100n, overrun: 0n, writtenOff: 0n }]);
    expect(await redis.hget(keys.hold(lease), 'amount')).toBe('450');
    // Leases and their draws are ledgered by the usage writer, not through the event stream.
    expect(await events()).toEqual([]);

    // The leasing process admitted 200 in all: r3's 50 is still on its way, so it stays held.
    await wallet.closeLeases([{ lease, charged: '200' }]);
    expect(await wallet.balance(tenant)).toBe(1000n - 200n);
    expect(await redis.hget(keys.hold(lease), 'amount')).toBe('50');
    await draw('r3', '50');
    expect(await redis.exists(keys.hold(lease))).toBe(0);
    expect(await wallet.dueHolds(Date.now() + 120_000)).not.toContain(lease);
    expect(await wallet.balance(tenant)).toBe(800n);
    // Gone: a late replay (its writer died before its ledger rows, and the lease ended since) answers its
    // draw again and moves nothing, for as long as the draws are kept; a new request draws nothing.
    expect(await redis.ttl(keys.leaseDraws(lease))).toBeGreaterThan(DRAWS_REPLAY_SECONDS - 60);
    expect(await draw('r3', '50')).toEqual([{ requestId: 'r3', tenantId: tenant, pool: 'balance', charged: 50n, overrun: 0n, writtenOff: 0n }]);
    expect(await draw('r2', '50')).toEqual([{ requestId: 'r2', tenantId: tenant, pool: 'balance', charged: 50n, overrun: 0n, writtenOff: 0n }]);
    expect(await draw('r4', '50')).toEqual([]);
    expect(await wallet.balance(tenant)).toBe(800n);
  });

  it('charges a lease draw above its admission from the balance once the lease runs dry, writes off what the balance cannot cover, and keeps the lease for the draws its close still owes', async () => {
    const tenant = randomUUID();
    await wallet.credit(tenant, 0n, 1000n);
    const lease = `lease:${randomUUID()}`;
    await wallet.reserve({ requestId: lease, tenantId: tenant, amount: 600n, holdTtlMs: 60_000, target: { mode: 'balance' }, lease: true });
    const draw = (requestId: string, micros: string, held: string) =>
      wallet.applySettlements([{ requestId, settlement: { action: 'draw', lease, micros, held } }]);

    expect(await draw('v1', '100', '80')).toEqual([{ requestId: 'v1', tenantId: tenant, pool: 'balance', charged: 100n, overrun: 20n, writtenOff: 0n }]);
    const [big] = await draw('v2', '700', '100');
    expect(big).toEqual({ requestId: 'v2', tenantId: tenant, pool: 'balance', charged: 700n, overrun: 600n, writtenOff: 0n });
    expect(leaseDrawEvents(big!).map((e) => [e.kind, e.amount])).toEqual([
      ['settle', '-100'],
      ['overrun', '-600'],
    ]);
    // The lease gave its last 500; the other 200 came out of the balance.
    expect(await redis.hget(keys.hold(lease), 'amount')).toBe('0');
    expect(await wallet.balance(tenant)).toBe(1000n - 600n - 200n);
    // A replay charges nothing more.
    expect(await draw('v2', '700', '100')).toEqual([big]);
    expect(await wallet.balance(tenant)).toBe(200n);

    // The process charged 850 in all: v3's 50 is on its way, and the empty lease stays until it lands.
    await wallet.closeLeases([{ lease, charged: '850' }]);
    expect(await redis.exists(keys.hold(lease))).toBe(1);
    // The balance's last 200 is charged; the other 150 of v3 is written off.
    const [last] = await draw('v3', '350', '50');
    expect(last).toEqual({ requestId: 'v3', tenantId: tenant, pool: 'balance', charged: 200n, overrun: 150n, writtenOff: 150n });
    expect(leaseDrawEvents(last!).map((e) => [e.kind, e.amount])).toEqual([
      ['settle', '-50'],
      ['overrun', '-150'],
      ['write_off', '0'],
    ]);
    expect(await redis.exists(keys.hold(lease))).toBe(0);
    // The balance stops at zero, and reservations are refused until a top-up.
    expect(await wallet.balance(tenant)).toBe(0n);
    expect((await reserve(`after-${tenant}`, tenant, 1n)).status).toBe('refused');
  });

  it('a swept lease returns only what its requests have not drawn', async () => {
    const tenant = randomUUID();
    await wallet.credit(tenant, 0n, 1000n);
    const lease = `lease:${randomUUID()}`;
    await wallet.reserve({ requestId: lease, tenantId: tenant, amount: 500n, holdTtlMs: -1, target: { mode: 'balance' }, lease: true });
    await wallet.applySettlements([{ requestId: 'd1', settlement: { action: 'draw', lease, micros: '120' } }]);
    expect(await wallet.dueHolds()).toContain(lease);
    // What the sweeper does with a hold past its deadline.
    await wallet.release(lease, 'expired');
    expect(await wallet.balance(tenant)).toBe(1000n - 120n);
    await events();
  });
});
