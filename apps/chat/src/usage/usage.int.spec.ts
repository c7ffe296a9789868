import { BillingClient, ProfileCache, WalletKeys, WalletStore } from '@gateway/billing';
import type { CatalogModel } from '@gateway/contracts';
import { createPrismaClient, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import { connectNats, NatsBus } from '@gateway/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import type { NatsConnection } from 'nats';
import type { UsageEvent } from './usage-event.schema';
import { UsageConsumer } from './usage.consumer';
import { UsagePublisher } from './usage.publisher';
import { UsageRepository } from './usage.repository';

function event(overrides: Partial<UsageEvent> = {}): UsageEvent {
  return {
    requestId: randomUUID(),
    tenantId: randomUUID(),
    keyId: randomUUID(),
    modelId: 'sandbox-gpt',
    channelId: randomUUID(),
    family: 'oaic',
    route: 'oaic.chat',
    promptTokens: 7,
    completionTokens: 11,
    latencyMs: 12,
    outcome: 'ok',
    status: 200,
    at: new Date().toISOString(),
    ...overrides,
  };
}

async function waitForRows(prisma: PrismaClient, ids: string[], count: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = await prisma.usageRecord.count({ where: { requestId: { in: ids } } });
    if (found >= count || Date.now() > deadline) return found;
    await sleep(50);
  }
}

describe('durable usage over JetStream and Postgres', () => {
  const prefix = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let connection: NatsConnection;
  let bus: NatsBus;
  let publisher: UsagePublisher;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'usage');
    prisma = createPrismaClient(db.url, 2);
    connection = await connectNats('nats://127.0.0.1:4222', 'usage-spec');
    bus = new NatsBus(connection, prefix);
    publisher = new UsagePublisher(bus);
    await publisher.onModuleInit();
  });

  afterAll(async () => {
    const jsm = await connection.jetstreamManager();
    await jsm.streams.delete(publisher.names.stream).catch(() => undefined);
    await connection.drain();
    await prisma.$disconnect();
    await db.drop();
  });

  it('keeps events published while no writer runs (a crash after answering) and writes them once one starts', async () => {
    const events = [event(), event({ outcome: 'cancelled', status: 499 }), event({ outcome: 'upstream_error', status: 500, channelId: null })];
    for (const e of events) publisher.record(e);
    const ids = events.map((e) => e.requestId);
    await sleep(200);
    expect(await prisma.usageRecord.count({ where: { requestId: { in: ids } } })).toBe(0);

    const consumer = new UsageConsumer(bus, publisher, new UsageRepository(prisma));
    await consumer.onApplicationBootstrap();
    try {
      expect(await waitForRows(prisma, ids, 3)).toBe(3);
      const cancelled = await prisma.usageRecord.findUniqueOrThrow({ where: { requestId: events[1]!.requestId } });
      expect(cancelled).toMatchObject({ outcome: 'cancelled', status: 499, promptTokens: 7, completionTokens: 11, tenantId: events[1]!.tenantId });
      expect(cancelled.createdAt.toISOString()).toBe(events[1]!.at);
      const failed = await prisma.usageRecord.findUniqueOrThrow({ where: { requestId: events[2]!.requestId } });
      expect(failed.channelId).toBeNull();
    } finally {
      await consumer.onModuleDestroy();
    }
  });

  it('writes a redelivered or republished event only once', async () => {
    const consumer = new UsageConsumer(bus, publisher, new UsageRepository(prisma));
    await consumer.onApplicationBootstrap();
    try {
      const once = event();
      publisher.record(once);
      publisher.record(once);
      expect(await waitForRows(prisma, [once.requestId], 1)).toBe(1);
      await sleep(300);
      expect(await prisma.usageRecord.count({ where: { requestId: once.requestId } })).toBe(1);
      // A later copy outside the dedupe window still lands on the same primary key and is skipped.
      await new UsageRepository(prisma).insertMany([once]);
      expect(await prisma.usageRecord.count({ where: { requestId: once.requestId } })).toBe(1);
    } finally {
      await consumer.onModuleDestroy();
    }
  });

  it('ends billing holds from the settlements the events carry: charged at usage, released on failure, once', async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableAutoPipelining: true });
    const wallet = new WalletStore(redis, WalletKeys.fromPrefix(prefix));
    const billing = new BillingClient(wallet, bus, new ProfileCache(bus), { enabled: true, holdTtlMs: 60_000 });
    const billed = new UsagePublisher(bus, billing);
    await billed.onModuleInit();
    const model: CatalogModel = {
      id: 'sandbox-gpt',
      capability: 'chat',
      defaultMaxTokens: 100,
      prices: { inputPerMTok: '1000000', outputPerMTok: '2000000', perImage: '0', perSecond: '0', perTask: '0' },
    };
    const tenantId = randomUUID();
    await wallet.credit(tenantId, 0n, 10_000n);
    const served = event({ tenantId, promptTokens: 3, completionTokens: 4 });
    const failed = event({ tenantId, outcome: 'upstream_error', status: 500 });
    for (const e of [served, failed]) {
      await billing.reserve({ requestId: e.requestId, tenantId, keyKind: 'payg', model, body: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 } });
    }
    const held = (await wallet.balance(tenantId))!;
    expect(held).toBeLessThan(10_000n);
    billed.record(served);
    billed.record(failed);
    // The holds stay until the durable record is consumed.
    await sleep(200);
    expect(await wallet.balance(tenantId)).toBe(held);

    const consumer = new UsageConsumer(bus, billed, new UsageRepository(prisma), billing);
    await consumer.onApplicationBootstrap();
    try {
      expect(await waitForRows(prisma, [served.requestId, failed.requestId], 2)).toBe(2);
      // 3 input tokens at 1 micro and 4 output tokens at 2 micros; the failed request costs nothing.
      expect(await wallet.balance(tenantId)).toBe(10_000n - 11n);
      expect(await redis.exists(wallet.keys.hold(served.requestId), wallet.keys.hold(failed.requestId))).toBe(0);
      // A redelivered settlement finds no hold and charges nothing more.
      await billing.applySettlements([{ requestId: served.requestId, settlement: { action: 'settle', micros: '11' } }]);
      expect(await wallet.balance(tenantId)).toBe(10_000n - 11n);
    } finally {
      await consumer.onModuleDestroy();
      const keys = await redis.keys(`${wallet.keys.tag}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
