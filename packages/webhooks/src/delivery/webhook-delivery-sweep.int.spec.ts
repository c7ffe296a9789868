import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import type { QueueFactory } from '@gateway/platform';
import type { Queue } from 'bullmq';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookQueues, WEBHOOK_QUEUE, type WebhookJob } from '../queue/webhook-queue';
import { WebhookSecretService } from '../secrets/webhook-secret.service';
import { WebhookRepository, type NewDelivery } from '../store/webhook.repository';
import { WebhooksEnv } from '../webhooks-env';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { deliveryJobId, WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDeliverySweeper } from './webhook-delivery.sweeper';
import { WebhookSender } from './webhook-sender';

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Deliveries whose rows committed but whose jobs never came, or ended without making them: the sweep
// queues them again. Real Postgres, Redis, BullMQ workers and an HTTP receiver.
jest.setTimeout(60_000);
describe('the webhook sweep', () => {
  const env = WebhooksEnv.parse({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' });
  const prefix = `whs${randomBytes(4).toString('hex')}.`;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let queues: QueueFactory;
  let queue: Queue<WebhookJob>;
  let sender: WebhookSender;
  let repository: WebhookRepository;
  let delivery: WebhookDeliveryService;
  let server: Server;
  let url: string;
  const hits: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'webhooksweep');
    const pool = createSqlPool(db.url);
    prisma = createPrismaClient(pool);
    repository = new WebhookRepository(prisma, pool);
    sender = new WebhookSender({ allowPrivate: true }, env.WEBHOOK_TIMEOUT_MS);
    queues = createWebhookQueues(env.REDIS_URL, prefix);
    queue = queues.queue<WebhookJob>(WEBHOOK_QUEUE);
    delivery = new WebhookDeliveryService(repository, new WebhookSecretService(repository, 60), sender, queue, { baseMs: 50, maxMs: 200, maxAttempts: 3 });
    new WebhookDeliveryProcessor(delivery, queues, env).start();
    server = createServer((request, response) => {
      request.resume();
      hits.push(String(request.headers['webhook-id']));
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });

  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queues.close();
    await sender.close();
    server.closeAllConnections();
    server.close();
    await prisma.$disconnect();
    await db.drop();
  });

  const row = (subjectId: string, eventType: string, seq: number): NewDelivery => ({
    id: `msg_${randomBytes(16).toString('hex')}`,
    tenantId: randomUUID(),
    subjectId,
    eventType,
    seq,
    url,
    payload: { eventType },
  });
  const statuses = async (subjectId: string) => (await repository.listBySubject(subjectId)).map((d) => d.status);

  it('delivers a delivery whose row committed but whose queuing never happened', async () => {
    const subject = `task-${randomUUID()}`;
    const recorded = row(subject, 'complete', 2);
    // The outbox's insert committed; the enqueue after it (Redis away, the process killed) did not happen.
    expect((await repository.insert([recorded])).inserted).toBe(1);
    await pause(500);
    expect(await statuses(subject)).toEqual(['pending']);
    expect(await queue.getJob(deliveryJobId(recorded.id, 1))).toBeUndefined();

    // Not yet due for longer than the grace period: left alone.
    expect(await delivery.resumeStalled(60_000)).toBe(0);
    expect(await delivery.resumeStalled(0)).toBe(1);
    await waitUntil(async () => (await statuses(subject))[0] === 'delivered');
    expect(hits.filter((id) => id === recorded.id)).toHaveLength(1);
    // Delivered: nothing left for the sweep.
    expect(await delivery.resumeStalled(0)).toBe(0);
  });

  it('leaves alone a delivery whose job is waiting, and queues again one whose job ended without making it', async () => {
    const subject = `task-${randomUUID()}`;
    const first = row(subject, 'text', 0);
    const second = row(subject, 'first', 1);
    await repository.insert([first, second]);
    // The second's job runs while the first is its subject's head (as after an operator's redelivery of the
    // first): it is skipped and completes, and its id then stops the kick that follows the first's delivery.
    await queue.add('deliver', { deliveryId: second.id, subjectId: subject }, { jobId: deliveryJobId(second.id, 1), removeOnComplete: { age: 3600 } });
    await waitUntil(async () => (await queue.getJob(deliveryJobId(second.id, 1)))?.finishedOn !== undefined);
    expect(await (await queue.getJob(deliveryJobId(second.id, 1)))!.getState()).toBe('completed');

    const sweeper = new WebhookDeliverySweeper(delivery, 100, 0);
    sweeper.start();
    try {
      await waitUntil(async () => (await statuses(subject)).every((status) => status === 'delivered'));
    } finally {
      await sweeper.stop();
    }
    expect(hits.filter((id) => id === first.id || id === second.id)).toEqual([first.id, second.id]);

    // A head whose job is still to run (delayed here) is not queued twice.
    const later = row(`task-${randomUUID()}`, 'complete', 2);
    await repository.insert([later]);
    await queue.add('deliver', { deliveryId: later.id, subjectId: later.subjectId }, { jobId: deliveryJobId(later.id, 1), delay: 60_000 });
    await pause(50);
    expect(await delivery.resumeStalled(0)).toBe(0);
    expect(await (await queue.getJob(deliveryJobId(later.id, 1)))!.getState()).toBe('delayed');
  });
});
