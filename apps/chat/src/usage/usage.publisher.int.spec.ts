import { BillingClient, ProfileCache, WalletKeys, WalletStore } from '@gateway/billing';
import { sampleUsageEvent, UsageBatch, type CatalogModel, type UsageEvent } from '@gateway/contracts';
import { connectNats, decodeJson, NatsBus } from '@gateway/platform';
import Redis from 'ioredis';
import { AckPolicy, type NatsConnection } from 'nats';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsagePublisher } from './usage.publisher';

const MODEL: CatalogModel = {
  id: 'sandbox-gpt',
  capability: 'chat',
  defaultMaxTokens: 100,
  prices: { inputPerMTok: '1000000', outputPerMTok: '2000000', perImage: '0', perSecond: '0', perTask: '0' },
};

/** 3 input and 4 output tokens: the settlement below is priced from them. */
const event = (overrides: Partial<UsageEvent> = {}) => sampleUsageEvent({ promptTokens: 3, completionTokens: 4, ...overrides });

describe('usage publisher over a real JetStream', () => {
  const prefix = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;
  let connection: NatsConnection;
  let bus: NatsBus;
  let redis: Redis;
  let wallet: WalletStore;
  let billing: BillingClient;
  let publisher: UsagePublisher;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'usage-publisher-spec');
    bus = new NatsBus(connection, prefix);
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableAutoPipelining: true });
    wallet = new WalletStore(redis, WalletKeys.fromPrefix(prefix));
    billing = new BillingClient(wallet, bus, new ProfileCache(bus), { enabled: true, holdTtlMs: 60_000 });
    publisher = new UsagePublisher(bus, billing);
    await publisher.onModuleInit();
    const jsm = await connection.jetstreamManager();
    await jsm.consumers.add(publisher.names.stream, { durable_name: 'spec-reader', ack_policy: AckPolicy.Explicit });
  });

  afterAll(async () => {
    const jsm = await connection.jetstreamManager();
    await jsm.streams.delete(publisher.names.stream).catch(() => undefined);
    const keys = await redis.keys(`${wallet.keys.tag}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await connection.drain();
  });

  /** What the stream holds now, one entry per message. */
  async function stored(): Promise<UsageBatch[]> {
    await sleep(100);
    const messages = connection.jetstream().fetch(publisher.names.stream, 'spec-reader', { batch: 100, no_wait: true });
    const batches: UsageBatch[] = [];
    for await (const msg of messages) {
      batches.push(UsageBatch.parse(decodeJson(msg.data)));
      msg.ack();
    }
    return batches;
  }

  it('sends the events of one turn as one durable message, before any reply that follows', async () => {
    const events = [event(), event({ outcome: 'cancelled', status: 499 }), event()];
    for (const e of events) publisher.record(e);
    // The reply barrier writes the batch at once; nothing waits for the end of the turn.
    bus.beforeReply.pass();
    publisher.record(events[2]!);
    const batches = await stored();
    expect(batches.map((b) => b.events.map((e) => e.requestId))).toEqual([events.map((e) => e.requestId), [events[2]!.requestId]]);
    expect(batches[0]!.events[1]).toMatchObject({ outcome: 'cancelled', status: 499 });
  });

  it('carries how each billing hold ends: settled at the metered tokens, released on failure', async () => {
    const tenantId = randomUUID();
    await wallet.credit(tenantId, 0n, 10_000n);
    const served = event({ tenantId });
    const failed = event({ tenantId, outcome: 'upstream_error', status: 500 });
    const unbilled = event({ tenantId });
    for (const e of [served, failed]) {
      await billing.reserve({
        requestId: e.requestId,
        tenantId,
        keyKind: 'payg',
        model: MODEL,
        body: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 },
      });
    }
    for (const e of [served, failed, unbilled]) publisher.record(e);
    const [batch] = await stored();
    // 3 input tokens at 1 micro and 4 output tokens at 2 micros.
    expect(batch!.events.map((e) => e.settlement)).toEqual([{ action: 'settle', micros: '11' }, { action: 'release' }, undefined]);
    // Holds are ended by the usage writer from the durable record, not here.
    expect(await wallet.holdCount()).toBe(2);
  });
});
