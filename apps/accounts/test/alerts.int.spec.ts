import { WalletKeys, WalletStore } from '@gateway/billing';
import {
  AlertListReply,
  ApplyResult,
  BalanceView,
  AlertSettingsView,
  budgetCounterId,
  budgetWindowOf,
  BudgetView,
  KeyCreated,
  SUBJECTS,
  TenantView,
  WebhookEndpointView,
} from '@gateway/contracts';
import Redis from 'ioredis';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { catalogConfig, startAccountsHarness, type AccountsHarness } from './accounts.harness';

const S = SUBJECTS.accounts;
const ENDPOINT = 'https://alerts.example.com/hooks/gateway';

describe('account alerts judged after the ledger consumer writes each batch', () => {
  let h: AccountsHarness;
  let redis: Redis;
  let wallet: WalletStore;
  let sql: pg.Client;
  let held = 0;

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_alerts');
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
  });

  async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
      await sleep(50);
    }
  }

  const alertsOf = (tenantId: string) =>
    sql
      .query<{ type: string; subject_id: string; url: string | null }>(
        'SELECT type, subject_id, url FROM tenant_alerts WHERE tenant_id = $1 ORDER BY subject_id',
        [tenantId],
      )
      .then((r) => r.rows);
  const deliveriesOf = (tenantId: string) =>
    sql
      .query<{ event_type: string; subject_id: string; url: string; payload: { type: string; data: Record<string, unknown> } }>(
        'SELECT event_type, subject_id, url, payload FROM webhook_deliveries WHERE tenant_id = $1 ORDER BY subject_id',
        [tenantId],
      )
      .then((r) => r.rows);

  /** One request charged `amount` to the tenant's balance (and to `counters`), through the wallet as the gateway does. */
  async function spend(tenantId: string, amount: bigint, counters: string[] = []): Promise<void> {
    const requestId = `alerts-${++held}`;
    const budgets = counters.map((counterId) => ({ counterId, limit: null, ttlSeconds: 86_400 * 2 }));
    expect((await wallet.reserve({ requestId, tenantId, amount, holdTtlMs: 60_000, target: { mode: 'balance' }, budgets })).status).toBe('reserved');
    await wallet.settle(requestId, amount);
  }

  async function payer(slug: string, micros: string): Promise<TenantView> {
    const tenant = await h.bus.request(S.tenants.create, { slug }, TenantView);
    await h.bus.request(S.balance.topup, { tenant: slug, amountMicros: micros }, BalanceView);
    return tenant;
  }

  it('refuses an endpoint the destination policy refuses, and keeps one that passes', async () => {
    await payer('hooked', '1000000');
    await expect(h.bus.request(S.alerts.endpointSet, { tenant: 'hooked', url: 'http://127.0.0.1:9/x', events: ['*'] }, WebhookEndpointView)).rejects.toThrow(
      /endpoint URL is refused/,
    );
    const saved = await h.bus.request(S.alerts.endpointSet, { tenant: 'hooked', url: ENDPOINT, events: ['budget.*', 'balance.low'] }, WebhookEndpointView);
    expect(saved).toMatchObject({ tenant: 'hooked', url: ENDPOINT, events: ['budget.*', 'balance.low'] });
  });

  it('sends budget.threshold_reached once per share of a soft key budget, through the outbox', async () => {
    const tenant = await payer('budgeted', '10000000');
    await h.bus.request(S.alerts.endpointSet, { tenant: 'budgeted', url: ENDPOINT, events: ['budget.*'] }, WebhookEndpointView);
    const key = await h.bus.request(S.keys.create, { tenant: 'budgeted', name: 'ci' }, KeyCreated);
    const budget = await h.bus.request(
      S.budgets.set,
      { key: key.id, amountMicros: '1000000', period: 'day', mode: 'soft', alertAt: [50, 80, 100] },
      BudgetView,
    );
    const counter = budgetCounterId('key', key.id, budgetWindowOf('day', Date.now()));

    await spend(tenant.id, 600_000n, [counter]);
    await until(
      'the 50 % alert',
      () => alertsOf(tenant.id),
      (rows) => rows.length === 1,
    );
    await spend(tenant.id, 100_000n, [counter]);
    await spend(tenant.id, 400_000n, [counter]);
    await until(
      'the 80 and 100 % alerts',
      () => alertsOf(tenant.id),
      (rows) => rows.length === 3,
    );
    // Further spending in the period reaches no new share: nothing more is sent.
    await spend(tenant.id, 10_000n, [counter]);
    await sleep(1500);

    const deliveries = await deliveriesOf(tenant.id);
    expect(deliveries.map((d) => d.subject_id)).toEqual([50, 80, 100].map((share) => `budget:${counter}:${share}`).sort());
    expect(deliveries.every((d) => d.event_type === 'budget.threshold_reached' && d.url === ENDPOINT)).toBe(true);
    const fifty = deliveries.find((d) => d.subject_id.endsWith(':50'))!;
    expect(fifty.payload).toMatchObject({
      type: 'budget.threshold_reached',
      data: { scope: 'key', key: key.id, project: 'default', amount: '1.000000', usedMicros: '600000', share: 50, mode: 'soft', period: 'day' },
    });
    expect(fifty.payload.data.resetsAt).toBe(budget.resetsAt);

    const listed = await h.bus.request(S.alerts.list, { tenant: 'budgeted', limit: 10 }, AlertListReply);
    expect(listed).toHaveLength(3);
    expect(listed.every((a) => a.delivery?.status === 'pending' && a.url === ENDPOINT)).toBe(true);
  }, 40_000);

  it('fires balance.low once per fall below the amount, re-armed by a top-up; recorded only without an endpoint', async () => {
    const tenant = await payer('lowbal', '1000000');
    const settings = await h.bus.request(S.alerts.settingsSet, { tenant: 'lowbal', balanceBelowMicros: '500000' }, AlertSettingsView);
    expect(settings).toEqual({ tenant: 'lowbal', balanceBelow: '0.500000', balanceBelowMicros: '500000', quotaBelow: null });

    await spend(tenant.id, 300_000n);
    await sleep(1000);
    expect(await alertsOf(tenant.id)).toEqual([]);
    await spend(tenant.id, 300_000n);
    await until(
      'balance.low',
      () => alertsOf(tenant.id),
      (rows) => rows.length === 1,
    );
    await spend(tenant.id, 100_000n);
    await sleep(1000);
    expect(await alertsOf(tenant.id)).toEqual([{ type: 'balance.low', subject_id: `balance:${tenant.id}:0`, url: null }]);

    // Back above after a top-up, then below again: a second alert.
    await h.bus.request(S.balance.topup, { tenant: 'lowbal', amountMicros: '1000000' }, BalanceView);
    await until(
      'the re-arming',
      () => sql.query<{ balance_epoch: number }>('SELECT balance_epoch FROM tenant_alert_settings WHERE tenant_id = $1', [tenant.id]),
      (r) => r.rows[0]?.balance_epoch === 1,
    );
    await spend(tenant.id, 900_000n);
    const rows = await until(
      'the second balance.low',
      () => alertsOf(tenant.id),
      (r) => r.length === 2,
    );
    expect(rows.map((r) => r.subject_id)).toEqual([`balance:${tenant.id}:0`, `balance:${tenant.id}:1`]);
    expect(await deliveriesOf(tenant.id)).toEqual([]);
  }, 40_000);

  it('fires quota.low once per period when a plan quota left falls below its share', async () => {
    // Request-count quotas are metered in Redis but not ledgered: quota.low follows credit quotas.
    await h.bus.request(S.config.apply, catalogConfig({ plans: [{ name: 'starter', quota: { credit: '1.00' }, period: '30d' }] }), ApplyResult);
    const acme = await h.bus.request(S.tenants.get, { slug: 'acme' }, TenantView);
    await h.bus.request(S.alerts.settingsSet, { tenant: 'acme', quotaBelow: 20 }, AlertSettingsView);
    const quota = wallet.keys.quota(acme.id, 0, 'micros');
    await redis.set(quota, '799000');
    const take = async (id: string) => {
      expect(
        (
          await wallet.reserve({
            requestId: id,
            tenantId: acme.id,
            amount: 1000n,
            holdTtlMs: 60_000,
            target: { mode: 'quota', unit: 'micros', periodIndex: 0, limit: 1_000_000n, ttlSeconds: 86_400 },
          })
        ).status,
      ).toBe('reserved');
      await wallet.settle(id, 1000n);
    };
    await take('quota-1');
    await sleep(1000);
    expect(await alertsOf(acme.id)).toEqual([]);
    await take('quota-2');
    await take('quota-3');
    await until(
      'quota.low',
      () => alertsOf(acme.id),
      (rows) => rows.length === 1,
    );
    await take('quota-4');
    await sleep(1000);
    expect((await alertsOf(acme.id)).map((r) => r.subject_id)).toEqual([`quota:${acme.id}:0:20`]);
  }, 40_000);
});
