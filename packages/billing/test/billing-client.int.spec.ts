import { SUBJECTS, type BillingProfile, type BudgetRule, type CatalogModel, type SubscriptionProfile } from '@gateway/contracts';
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

  const client = (enabled = true, leaseRequests = 0) => {
    const cache = new ProfileCache(bus);
    cache.follow();
    return new BillingClient(wallet, bus, cache, { enabled, holdTtlMs: 60_000, leaseRequests });
  };
  /** The holds in Redis that draw on this tenant's balance. */
  const holdsOf = async (tenantId: string) => {
    const found: string[] = [];
    for (const key of await redis.keys(`${wallet.keys.tag}:hold:*`)) if ((await redis.hget(key, 'tenant')) === tenantId) found.push(key);
    return found;
  };
  const request = (tenantId: string, keyKind: 'payg' | 'plan' | 'custom', body: Record<string, unknown> = BODY) => ({
    requestId: randomUUID(),
    tenantId,
    keyKind,
    model: MODEL,
    body,
  });
  const served = (requestId: string, promptTokens: number, completionTokens: number, outcome = 'ok') => ({
    requestId,
    outcome,
    promptTokens,
    completionTokens,
  });
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
    connection.subscribe(bus.subject(SUBJECTS.accounts.billing.seed), {
      callback: async (_e, msg) => {
        const { tenantId } = decodeJson(msg.data) as { tenantId: string };
        await wallet.seed(tenantId, stored.get(tenantId) ?? 0n);
        msg.respond(encodeJson({ ok: true, data: { micros: String((await wallet.balance(tenantId)) ?? 0n) } }));
      },
    });
    connection.subscribe(bus.subject(SUBJECTS.accounts.billing.profile), {
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
    profiles.set(tenant, {
      tenantId: tenant,
      billing: 'custom',
      subscription: subscription({ kind: 'custom', quotaMicros: '1000', priceOverrides: overrides }),
    });
    const billing = client();
    const call = request(tenant, 'custom');
    await billing.reserve(call);
    await billing.finish(served(call.requestId, 3, 4));
    expect(await wallet.quotaUsed(tenant, 0, 'micros')).toBe(3n * 1n + 4n * 5n);
  });

  it('refuses a key whose subscription has expired, and refetches a profile after an invalidation', async () => {
    const tenant = randomUUID();
    profiles.set(tenant, {
      tenantId: tenant,
      billing: 'plan',
      subscription: subscription({ quotaRequests: 10, expiresAt: new Date(Date.now() - 1000).toISOString() }),
    });
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

  describe('with balance leases', () => {
    it('admits many requests under one hold, each drawing its actual cost, and closes the lease with their total', async () => {
      const tenant = randomUUID();
      stored.set(tenant, 100_000n);
      const billing = client(true, 4);
      const closes: Array<{ lease: string; charged: string }> = [];
      billing.onLeaseClose((close) => closes.push(close));
      const calls = [request(tenant, 'payg'), request(tenant, 'payg'), request(tenant, 'payg')];
      await Promise.all(calls.map((call) => billing.reserve(call)));
      // One Redis hold of four requests' maximum cost, whatever the number of requests.
      const holds = await holdsOf(tenant);
      expect(holds).toHaveLength(1);
      const leaseHeld = BigInt((await redis.hget(holds[0]!, 'amount'))!);
      expect(await wallet.balance(tenant)).toBe(100_000n - leaseHeld);

      const settlements = [
        billing.settlementFor(served(calls[0]!.requestId, 3, 4)),
        billing.settlementFor(served(calls[1]!.requestId, 5, 5, 'upstream_error')),
        billing.settlementFor(served(calls[2]!.requestId, 1, 1, 'cancelled')),
      ];
      const lease = holds[0]!.slice(holds[0]!.indexOf('lease:'));
      expect(settlements).toEqual([{ action: 'draw', lease, micros: '11', held: '42' }, null, { action: 'draw', lease, micros: '3', held: '42' }]);
      expect(closes).toEqual([]);
      billing.retireLeases();
      expect(closes).toEqual([{ lease, charged: '14' }]);

      // Applied as the usage writer does: the draws, then the close.
      await billing.applySettlements(settlements.flatMap((settlement, i) => (settlement ? [{ requestId: calls[i]!.requestId, settlement }] : [])));
      await wallet.closeLeases(closes);
      expect(await wallet.balance(tenant)).toBe(100_000n - 14n);
      expect(await holdsOf(tenant)).toEqual([]);
    });

    it('admits requests under budgets under a lease held against them, and holds each on its own when no lease fits a budget', async () => {
      const tenant = randomUUID();
      stored.set(tenant, 100_000n);
      const billing = client(true, 4);
      const rule = (amountMicros: string): BudgetRule => ({ scope: 'key', scopeId: randomUUID(), name: 'k', amountMicros, period: 'total', mode: 'hard' });
      const roomy = rule('10000');
      const calls = [1, 2, 3].map(() => ({ ...request(tenant, 'payg'), budgets: [roomy] }));
      for (const call of calls) await billing.reserve(call);
      // One lease of four requests' maximum cost (4 × 42), taken from the budget as from the balance.
      expect(await holdsOf(tenant)).toHaveLength(1);
      expect(await wallet.budgetUsed(`key:${roomy.scopeId}:t`)).toBe(168n);
      // A budget too small for a lease: each request holds its own, exactly as far as the budget goes.
      const tight = rule('100');
      const outcomes = await Promise.allSettled([1, 2, 3].map(() => billing.reserve({ ...request(tenant, 'payg'), budgets: [tight] })));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(['budget_exceeded']);
      expect(await holdsOf(tenant)).toHaveLength(3);
      expect(await wallet.budgetUsed(`key:${tight.scopeId}:t`)).toBe(84n);
    });

    it("charges a leased request's usage beyond its admission in full, and admits no more against what the overrun took", async () => {
      const tenant = randomUUID();
      stored.set(tenant, 100_000n);
      const billing = client(true, 2);
      const closes: Array<{ lease: string; charged: string }> = [];
      billing.onLeaseClose((close) => closes.push(close));
      const first = request(tenant, 'payg');
      await billing.reserve(first);
      const [hold] = await holdsOf(tenant);
      const lease = hold!.slice(hold!.indexOf('lease:'));
      // Admitted for 42 (the lease holds 84); the upstream reported 100 + 2 × 50 = 200.
      const settlement = billing.settlementFor(served(first.requestId, 100, 50));
      expect(settlement).toEqual({ action: 'draw', lease, micros: '200', held: '42' });
      // The lease has nothing left to admit the next request against: it closes, and the next one opens another.
      const second = request(tenant, 'payg');
      await billing.reserve(second);
      expect(closes).toEqual([{ lease, charged: '200' }]);
      expect(await holdsOf(tenant)).toHaveLength(2);

      const [draw] = await billing.applySettlements([{ requestId: first.requestId, settlement: settlement! }]);
      expect(draw).toMatchObject({ charged: 200n, overrun: 158n });
      await billing.finish(served(second.requestId, 1, 1));
      billing.retireLeases();
      await wallet.closeLeases(closes);
      expect(await wallet.balance(tenant)).toBe(100_000n - 200n - 3n);
      expect(await holdsOf(tenant)).toEqual([]);
    });

    it('opens the next lease when one runs out, and holds per request when no lease fits the balance', async () => {
      const tenant = randomUUID();
      const billing = client(true, 2);
      const probe = request(tenant, 'payg');
      stored.set(tenant, 1_000_000n);
      await billing.reserve(probe);
      const [first] = await holdsOf(tenant);
      const cost = BigInt((await redis.hget(first!, 'amount'))!) / 2n;
      await billing.reserve(request(tenant, 'payg'));
      // Third request: the first lease is spent, a second one opens.
      await billing.reserve(request(tenant, 'payg'));
      expect(await holdsOf(tenant)).toHaveLength(2);

      // A tenant whose balance covers one request but not a lease of two.
      const poor = randomUUID();
      stored.set(poor, cost + cost / 2n);
      const single = request(poor, 'payg');
      await billing.reserve(single);
      const holds = await holdsOf(poor);
      expect(holds).toEqual([wallet.keys.hold(single.requestId)]);
      await expect(billing.reserve(request(poor, 'payg'))).rejects.toMatchObject({ code: 'insufficient_quota' });
      expect(billing.settlementFor(served(single.requestId, 3, 4))).toEqual({ action: 'settle', micros: '11' });
    });

    it('never admits more than the lease holds, however many requests arrive at once', async () => {
      const tenant = randomUUID();
      const billing = client(true, 8);
      const closes: Array<{ lease: string; charged: string }> = [];
      billing.onLeaseClose((close) => closes.push(close));
      stored.set(tenant, 10_000_000n);
      const probe = request(tenant, 'payg');
      await billing.reserve(probe);
      const cost = BigInt((await redis.hget((await holdsOf(tenant))[0]!, 'amount'))!) / 8n;
      // Leave the balance at exactly one more lease after this one.
      await wallet.credit(tenant, 0n, -(await wallet.balance(tenant))! + cost * 8n);
      const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => billing.reserve(request(tenant, 'payg'))));
      const admitted = outcomes.filter((o) => o.status === 'fulfilled').length;
      // 7 left under the first lease, 8 under the second, nothing more.
      expect(admitted).toBe(15);
      expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason.code === 'insufficient_quota')).toBe(true);
      expect(await wallet.balance(tenant)).toBe(0n);
    });
  });
});
