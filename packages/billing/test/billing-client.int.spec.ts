import { BILLING_SUBJECTS, SUBJECTS, type BillingProfile, type CatalogModel, type SubscriptionProfile } from '@gateway/contracts';
import { connectNats, decodeJson, encodeJson, NatsBus } from '@gateway/platform';
import Redis from 'ioredis';
import type { NatsConnection } from 'nats';
import { randomBytes, randomUUID } from 'node:crypto';
import { BillingClient, ProfileCache, WalletKeys, WalletStore } from '../src';

const MODEL: CatalogModel = {
  id: 'sandbox-gpt',
  capability: 'chat',
  defaultMaxTokens: 100,
  prices: { inputPerMTok: '1000000', outputPerMTok: '2000000', perImage: '0', perSecond: '0', perTask: '0' },
};
const BODY = { model: 'sandbox-gpt', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 };

describe('billing client against real Redis and NATS', () => {
  const prefix = `t${Date.now()}${randomBytes(3).toString('hex')}.`;
  let connection: NatsConnection;
  let bus: NatsBus;
  let redis: Redis;
  let wallet: WalletStore;
  const stored = new Map<string, bigint>();
  const profiles = new Map<string, BillingProfile>();
  let profileRequests = 0;

  const client = (enabled = true) => {
    const cache = new ProfileCache(bus);
    cache.follow();
    return new BillingClient(wallet, bus, cache, { enabled, holdTtlMs: 60_000 });
  };
  const request = (tenantId: string, keyKind: 'payg' | 'plan' | 'custom', body: Record<string, unknown> = BODY) => ({ requestId: randomUUID(), tenantId, keyKind, model: MODEL, body });
  const served = (requestId: string, promptTokens: number, completionTokens: number, outcome = 'ok') => ({ requestId, outcome, promptTokens, completionTokens });
  const subscription = (overrides: Partial<SubscriptionProfile>): SubscriptionProfile => ({
    kind: 'plan',
    quotaMicros: null,
    quotaRequests: null,
    periodSeconds: 3600,
    startsAt: new Date().toISOString(),
    expiresAt: null,
    priceOverrides: {},
    ...overrides,
  });

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'billing-client-spec');
    bus = new NatsBus(connection, prefix);
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(prefix));
    // Stands in for accounts: answers seed and profile from the maps above.
    connection.subscribe(bus.subject(BILLING_SUBJECTS.seed), {
      callback: async (_e, msg) => {
        const { tenantId } = decodeJson(msg.data) as { tenantId: string };
        await wallet.seed(tenantId, stored.get(tenantId) ?? 0n);
        msg.respond(encodeJson({ ok: true, data: { micros: String((await wallet.balance(tenantId)) ?? 0n) } }));
      },
    });
    connection.subscribe(bus.subject(BILLING_SUBJECTS.profile), {
      callback: (_e, msg) => {
        profileRequests++;
        const { tenantId } = decodeJson(msg.data) as { tenantId: string };
        msg.respond(encodeJson({ ok: true, data: profiles.get(tenantId) }));
      },
    });
    await connection.flush();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${wallet.keys.tag}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await connection.drain();
  });

  it('seeds a pay-as-you-go balance on first use, reserves the maximum and settles at actual usage', async () => {
    const tenant = randomUUID();
    stored.set(tenant, 1000n);
    const billing = client();
    const call = request(tenant, 'payg');
    await billing.reserve(call);
    // input: the estimate of the messages; output: max_tokens 10 at 2 micros per token.
    expect(await wallet.balance(tenant)).toBeLessThan(1000n - 20n);
    await billing.finish(served(call.requestId, 3, 4));
    expect(await wallet.balance(tenant)).toBe(1000n - (3n * 1n + 4n * 2n));
    await billing.finish(served(call.requestId, 3, 4));
    expect(await wallet.balance(tenant)).toBe(989n);
  });

  it('refuses what the balance cannot cover and releases a failed request whole', async () => {
    const tenant = randomUUID();
    stored.set(tenant, 60n);
    const billing = client();
    const big = request(tenant, 'payg', { ...BODY, max_tokens: 1000 });
    await expect(billing.reserve(big)).rejects.toMatchObject({ code: 'insufficient_quota' });
    const small = request(tenant, 'payg');
    await billing.reserve(small);
    await billing.finish(served(small.requestId, 5, 5, 'upstream_error'));
    expect(await wallet.balance(tenant)).toBe(60n);
    expect(await wallet.holdCount()).toBe(0);
  });

  it('meters a plan by requests per period, giving back the request of a failure', async () => {
    const tenant = randomUUID();
    profiles.set(tenant, { tenantId: tenant, billing: 'plan', subscription: subscription({ quotaRequests: 2 }) });
    const billing = client();
    const first = request(tenant, 'plan');
    const second = request(tenant, 'plan');
    await billing.reserve(first);
    await billing.reserve(second);
    await expect(billing.reserve(request(tenant, 'plan'))).rejects.toMatchObject({ code: 'insufficient_quota' });
    await billing.finish(served(second.requestId, 1, 1, 'error'));
    await billing.reserve(request(tenant, 'plan'));
    await billing.finish(served(first.requestId, 100, 100));
    expect(await wallet.quotaUsed(tenant, 0, 'requests')).toBe(2n);
    expect(await wallet.balance(tenant)).toBeNull();
  });

  it("charges a custom subscription's credit at its overridden prices", async () => {
    const tenant = randomUUID();
    const overrides = { 'sandbox-gpt': { outputPerMTok: '5000000' } };
    profiles.set(tenant, { tenantId: tenant, billing: 'custom', subscription: subscription({ kind: 'custom', quotaMicros: '1000', priceOverrides: overrides }) });
    const billing = client();
    const call = request(tenant, 'custom');
    await billing.reserve(call);
    await billing.finish(served(call.requestId, 3, 4));
    expect(await wallet.quotaUsed(tenant, 0, 'micros')).toBe(3n * 1n + 4n * 5n);
  });

  it('refuses a key whose subscription has expired, and refetches a profile after an invalidation', async () => {
    const tenant = randomUUID();
    profiles.set(tenant, { tenantId: tenant, billing: 'plan', subscription: subscription({ quotaRequests: 10, expiresAt: new Date(Date.now() - 1000).toISOString() }) });
    const billing = client();
    await expect(billing.reserve(request(tenant, 'plan'))).rejects.toMatchObject({ code: 'authentication_failed' });
    const before = profileRequests;
    profiles.set(tenant, { tenantId: tenant, billing: 'plan', subscription: subscription({ quotaRequests: 10 }) });
    await expect(billing.reserve(request(tenant, 'plan'))).rejects.toMatchObject({ code: 'authentication_failed' });
    expect(profileRequests).toBe(before);
    bus.publish(SUBJECTS.accounts.invalidated, { tenantIds: [tenant] });
    await connection.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await billing.reserve(request(tenant, 'plan'));
    expect(profileRequests).toBe(before + 1);
  });

  it('does nothing when billing is off', async () => {
    const tenant = randomUUID();
    const billing = client(false);
    const call = request(tenant, 'payg');
    await billing.reserve(call);
    await billing.finish(served(call.requestId, 1, 1));
    expect(await wallet.balance(tenant)).toBeNull();
  });
});
