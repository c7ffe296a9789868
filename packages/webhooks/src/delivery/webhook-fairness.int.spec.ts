import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import type { QueueFactory } from '@gateway/platform';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { WebhookOutbox } from '../outbox/webhook-outbox';
import { createWebhookQueues, WEBHOOK_QUEUE } from '../queue/webhook-queue';
import { WebhookSecretService } from '../secrets/webhook-secret.service';
import { WebhookRepository } from '../store/webhook.repository';
import { WebhooksEnv } from '../webhooks-env';
import { DeliverySlots } from './delivery-slots';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookSender } from './webhook-sender';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// A receiver that never answers, with far more deliveries queued for it than the worker has slots,
// against real Postgres and Redis: another tenant's delivery to a healthy receiver must not wait for it.
// The sender's timeout is far longer than the spec, so no slot of the dead receiver frees up while it runs.
jest.setTimeout(60_000);
describe('webhook delivery fairness', () => {
  const env = WebhooksEnv.parse({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_MS: '120000',
    WEBHOOK_CONCURRENCY: '4',
    WEBHOOK_RECEIVER_CONCURRENCY: '2',
    WEBHOOK_DEFER_MS: '100',
  });
  const prefix = `whf${randomBytes(4).toString('hex')}.`;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let queues: QueueFactory;
  let sender: WebhookSender;
  let outbox: WebhookOutbox;
  let repository: WebhookRepository;
  let slots: DeliverySlots;
  let dead: Server;
  let healthy: Server;
  let deadUrl: string;
  let healthyUrl: string;
  let deadRequests = 0;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'webhookfair');
    const pool = createSqlPool(db.url);
    prisma = createPrismaClient(pool);
    repository = new WebhookRepository(prisma, pool);
    sender = new WebhookSender({ allowPrivate: true }, env.WEBHOOK_TIMEOUT_MS);
    queues = createWebhookQueues(env.REDIS_URL, prefix);
    slots = new DeliverySlots(env.WEBHOOK_RECEIVER_CONCURRENCY, env.WEBHOOK_TENANT_CONCURRENCY);
    const delivery = new WebhookDeliveryService(
      repository,
      new WebhookSecretService(repository, 60),
      sender,
      queues.queue(WEBHOOK_QUEUE),
      { baseMs: 1000, maxMs: 2000, maxAttempts: 2 },
      slots,
    );
    new WebhookDeliveryProcessor(delivery, queues, env).start();
    outbox = new WebhookOutbox(repository, delivery);
    dead = createServer(() => void deadRequests++);
    healthy = createServer((_request, response) => response.writeHead(204).end());
    deadUrl = await listen(dead);
    healthyUrl = await listen(healthy);
  });

  afterAll(async () => {
    // The dead receiver's open deliveries end first, so the worker has nothing in flight to wait for.
    for (const server of [dead, healthy]) {
      server.closeAllConnections();
      server.close();
    }
    await queues.queue(WEBHOOK_QUEUE).obliterate({ force: true });
    await queues.close();
    await sender.close();
    await prisma.$disconnect();
    await db.drop();
  });

  const event = (tenantId: string, url: string) => ({
    tenantId,
    subjectId: `task-${randomUUID()}`,
    eventType: 'complete',
    seq: 0,
    url,
    payload: { code: 200, msg: 'success', data: { callbackType: 'complete' } },
  });

  it('a receiver that never answers holds only its own share of slots; another tenant is delivered at once', async () => {
    const hoarder = randomUUID();
    await outbox.publish(Array.from({ length: 30 }, () => event(hoarder, `${deadUrl}/never`)));
    // Every worker slot would now be taken by the dead receiver if it had no share of its own.
    await waitUntil(async () => slots.receiverLoad(`${deadUrl}/never`) >= 2, 10_000);

    const victim = event(randomUUID(), `${healthyUrl}/ok`);
    await outbox.publish([victim]);
    await waitUntil(async () => (await repository.listBySubject(victim.subjectId))[0]?.status === 'delivered', 30_000);
    // Delivered while the dead receiver still holds its two deliveries open: none had timed out to make room.
    expect(deadRequests).toBe(2);
    expect(slots.receiverLoad(`${deadUrl}/never`)).toBe(2);
  });
});
