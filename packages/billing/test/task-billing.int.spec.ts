import { SUBJECTS, type BillingProfile, type CatalogModel } from '@gateway/contracts';
import { connectNats, decodeJson, encodeJson, NatsBus } from '@gateway/platform';
import Redis from 'ioredis';
import type { NatsConnection } from 'nats';
import { randomBytes, randomUUID } from 'node:crypto';
import { BillingClient, LedgerEvent, ProfileCache, TaskBilling, WalletKeys, WalletStore } from '../src';

const VIDEO: CatalogModel = {
  id: 'sandbox-video',
  capability: 'video',
  defaultMaxTokens: 1,
  prices: { inputPerMTok: '0', outputPerMTok: '0', perImage: '0', perSecond: '100000', perTask: '50000' },
};

describe('task billing against real Redis and NATS', () => {
  const prefix = `t${Date.now()}${randomBytes(3).toString('hex')}.`;
  let connection: NatsConnection;
  let redis: Redis;
  let wallet: WalletStore;
  let billing: TaskBilling;
  const profiles = new Map<string, BillingProfile>();

  /** The ledger events the wallet appended for one hold. */
  const ledgerOf = async (holdId: string): Promise<LedgerEvent[]> => {
    const entries = (await redis.xrange(wallet.keys.events, '-', '+')) as Array<[string, string[]]>;
    return entries
      .map(([, fields]) => LedgerEvent.parse(Object.fromEntries(fields.flatMap((_, i) => (i % 2 === 0 ? [[fields[i]!, fields[i + 1]!]] : [])))))
      .filter((event) => event.rid === holdId);
  };
  const hold = (tenantId: string, keyKind: 'payg' | 'plan', quantity = { seconds: 5, tasks: 1 }) =>
    billing.hold({ holdId: `task_${randomUUID()}`, tenantId, keyKind, model: VIDEO, quantity, holdTtlMs: 60_000 });

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'task-billing-spec');
    const bus = new NatsBus(connection, prefix);
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(prefix));
    connection.subscribe(bus.subject(SUBJECTS.accounts.billing.seed), {
      callback: async (_e, msg) => {
        const { tenantId } = decodeJson(msg.data) as { tenantId: string };
        await wallet.seed(tenantId, 1_000_000n);
        msg.respond(encodeJson({ ok: true, data: { micros: '1000000' } }));
      },
    });
    connection.subscribe(bus.subject(SUBJECTS.accounts.billing.profile), {
      callback: (_e, msg) => {
        const { tenantId } = decodeJson(msg.data) as { tenantId: string };
        msg.respond(encodeJson({ ok: true, data: profiles.get(tenantId) }));
      },
    });
    billing = new TaskBilling(new BillingClient(wallet, bus, new ProfileCache(bus), { enabled: true, holdTtlMs: 60_000 }));
  });

  afterAll(async () => {
    const keys = await redis.keys(`${wallet.keys.tag}*`);
    if (keys.length) await redis.unlink(...keys);
    redis.disconnect();
    await connection.close();
  });

  it('holds perSecond × seconds + perTask, settles at what was produced, and ends a hold only once', async () => {
    const tenant = `ten_${randomBytes(4).toString('hex')}`;
    const taken = await hold(tenant, 'payg');
    expect(taken!.heldMicros).toBe('550000');
    expect(await wallet.balance(tenant)).toBe(450_000n);
    expect(await billing.settle(taken!, { seconds: 4, tasks: 1 })).toBe(450_000n);
    expect(await billing.settle(taken!, { seconds: 4, tasks: 1 })).toBeNull();
    expect(await billing.release(taken!)).toBe(false);
    expect(await wallet.balance(tenant)).toBe(550_000n);
    const ledger = await ledgerOf(taken!.holdId);
    expect(ledger.map((e) => e.kind)).toEqual(['reserve', 'settle']);
    expect(ledger.reduce((sum, e) => sum + BigInt(e.amount), 0n)).toBe(-450_000n);
  });

  it('releases a failed task whole: the balance is back where it was and its ledger sums to zero', async () => {
    const tenant = `ten_${randomBytes(4).toString('hex')}`;
    const taken = await hold(tenant, 'payg');
    expect(await billing.release(taken!, 'upstream failed')).toBe(true);
    expect(await wallet.balance(tenant)).toBe(1_000_000n);
    const ledger = await ledgerOf(taken!.holdId);
    expect(ledger.map((e) => e.kind)).toEqual(['reserve', 'release']);
    expect(ledger.reduce((sum, e) => sum + BigInt(e.amount), 0n)).toBe(0n);
  });

  it('refuses a task the balance cannot cover with insufficient_quota', async () => {
    const tenant = `ten_${randomBytes(4).toString('hex')}`;
    await expect(hold(tenant, 'payg', { seconds: 100, tasks: 1 })).rejects.toMatchObject({ code: 'insufficient_quota' });
  });

  it('counts a task as one request on a plan that counts requests, and applies price overrides on the balance', async () => {
    const planned = `ten_${randomBytes(4).toString('hex')}`;
    const startsAt = new Date().toISOString();
    const base = { kind: 'plan' as const, quotaMicros: null, periodSeconds: 3600, startsAt, expiresAt: null };
    profiles.set(planned, { tenantId: planned, billing: 'plan', subscription: { ...base, quotaRequests: 1, priceOverrides: {} } });
    const first = await hold(planned, 'plan');
    expect(first!.heldMicros).toBe('1');
    await expect(hold(planned, 'plan')).rejects.toMatchObject({ code: 'insufficient_quota' });
    expect(await billing.settle(first!, { seconds: 5, tasks: 1 })).toBe(1n);

    const custom = `ten_${randomBytes(4).toString('hex')}`;
    const overrides = { 'sandbox-video': { perSecond: '10000' } };
    profiles.set(custom, {
      tenantId: custom,
      billing: 'custom',
      subscription: { ...base, kind: 'custom', periodSeconds: null, quotaRequests: null, priceOverrides: overrides },
    });
    const priced = await hold(custom, 'plan');
    expect(priced!.heldMicros).toBe('100000');
  });
});
