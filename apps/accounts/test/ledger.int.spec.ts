import { WalletKeys, WalletStore } from '@gateway/billing';
import { BalanceSeedReply, BalanceView, BillingConfigureReply, BillingProfile, SUBJECTS, TenantView } from '@gateway/contracts';
import Redis from 'ioredis';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;

describe('ledger consumer, hold sweeper and billing subjects', () => {
  let h: AccountsHarness;
  let redis: Redis;
  let wallet: WalletStore;
  let sql: pg.Client;

  beforeAll(async () => {
    process.env.BILLING_SWEEP_INTERVAL_MS = '200';
    h = await startAccountsHarness('accounts_ledger');
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(h.bus.prefix));
    sql = new pg.Client({ connectionString: h.db.url });
    await sql.connect();
  }, 60_000);

  afterAll(async () => {
    await sql?.end();
    const keys = await redis.keys(`${wallet.keys.tag}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await h?.stop();
    delete process.env.BILLING_SWEEP_INTERVAL_MS;
  });

  async function stored(tenantId: string): Promise<{ balance: bigint; ledger: bigint; entries: number }> {
    const balance = await sql.query<{ micros: string }>('SELECT micros FROM balances WHERE tenant_id = $1', [tenantId]);
    const ledger = await sql.query<{ sum: string | null; n: string }>(
      "SELECT sum(amount_micros) AS sum, count(*) AS n FROM ledger_entries WHERE tenant_id = $1 AND pool = 'balance'",
      [tenantId],
    );
    return { balance: BigInt(balance.rows[0]?.micros ?? 0), ledger: BigInt(ledger.rows[0]!.sum ?? 0), entries: Number(ledger.rows[0]!.n) };
  }

  async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
      await sleep(50);
    }
  }

  it('seeds, tops up, and persists reserve/settle/release and swept holds into a ledger the balance recomputes from', async () => {
    const tenant = await h.bus.request(S.tenants.create, { slug: 'payer' }, TenantView);
    const topped = await h.bus.request(S.balance.topup, { tenant: 'payer', amountMicros: '1000000' }, BalanceView);
    expect(topped.balanceMicros).toBe('1000000');
    expect(await wallet.balance(tenant.id)).toBe(1_000_000n);
    await expect(h.bus.request(SUBJECTS.accounts.billing.seed, { tenantId: tenant.id }, BalanceSeedReply)).resolves.toEqual({ micros: '1000000' });

    const reserve = (id: string, amount: bigint, holdTtlMs = 60_000) =>
      wallet.reserve({ requestId: id, tenantId: tenant.id, amount, holdTtlMs, target: { mode: 'balance' } });
    for (const id of ['r1', 'r2', 'r4', 'r5']) expect((await reserve(id, 100_000n)).status).toBe('reserved');
    expect((await reserve('r3', 100_000n, 1)).status).toBe('reserved');
    await wallet.settle('r1', 30_000n);
    await wallet.release('r2');
    await wallet.settle('r4', 100_000n);
    await wallet.settle('r5', 100_000n);

    // r3's request "died": the sweeper gives its hold back within its interval.
    await until(
      'holds',
      () => wallet.holdCount(),
      (n) => n === 0,
      5000,
    );
    const expected = 1_000_000n - 30_000n - 200_000n;
    expect(await wallet.balance(tenant.id)).toBe(expected);
    const persisted = await until(
      'ledger',
      () => stored(tenant.id),
      (s) => s.balance === expected && s.entries === 1 + 5 + 5,
    );
    expect(persisted.ledger).toBe(persisted.balance);
    const swept = await sql.query("SELECT kind, amount_micros, note FROM ledger_entries WHERE request_id = 'r3' ORDER BY id");
    expect(swept.rows).toEqual([
      { kind: 'reserve', amount_micros: '-100000', note: null },
      { kind: 'release', amount_micros: '100000', note: 'expired' },
    ]);
    await expect(h.bus.request(S.balance.show, { tenant: 'payer' }, BalanceView)).resolves.toMatchObject({ balanceMicros: expected.toString() });
  });

  it('answers a custom tenant profile with its quota and price overrides, and invalidates its caches', async () => {
    await h.bus.request(S.tenants.create, { slug: 'bespoke', billing: 'custom', expires: '2099-01-01T00:00:00Z' }, TenantView);
    const configured = await h.bus.request(
      SUBJECTS.accounts.billing.configure,
      {
        tenant: 'bespoke',
        limits: { rpm: 60, perKey: { concurrency: 2 } },
        quota: { credit: '5000000', periodSeconds: 3600 },
        priceOverrides: { 'sandbox-gpt': { outputPerMTok: '9000000' } },
      },
      BillingConfigureReply,
    );
    expect(configured.limits).toEqual({ rpm: 60, perKey: { concurrency: 2 } });
    const tenantId = (await h.bus.request(S.tenants.get, { slug: 'bespoke' }, TenantView)).id;
    await h.nextEvent((e) => e.tenantIds.includes(tenantId));
    const profile = await h.bus.request(SUBJECTS.accounts.billing.profile, { tenantId }, BillingProfile);
    expect(profile).toMatchObject({
      billing: 'custom',
      subscription: {
        kind: 'custom',
        quotaMicros: '5000000',
        quotaRequests: null,
        periodSeconds: 3600,
        priceOverrides: { 'sandbox-gpt': { outputPerMTok: '9000000' } },
      },
    });
    const plain = await h.bus.request(S.tenants.create, { slug: 'plain' }, TenantView);
    await expect(h.bus.request(SUBJECTS.accounts.billing.configure, { tenant: 'plain', priceOverrides: {} }, BillingConfigureReply)).rejects.toMatchObject({
      code: 'invalid_request',
    });
    expect((await h.bus.request(SUBJECTS.accounts.billing.profile, { tenantId: plain.id }, BillingProfile)).subscription).toBeNull();
  });
});
