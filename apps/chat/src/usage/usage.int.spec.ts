import { createPrismaClient, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import { connectNats, NatsBus } from '@gateway/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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
    for (const e of events) await publisher.record(e);
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
      await publisher.record(once);
      await publisher.record(once);
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
});
