import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type SqlPool, type TestDatabase } from '@gateway/db';
import type { QueueFactory } from '@gateway/platform';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebhookOutbox } from '../outbox/webhook-outbox';
import { createWebhookQueues, WEBHOOK_QUEUE } from '../queue/webhook-queue';
import { WebhookSecretService } from '../secrets/webhook-secret.service';
import { WebhookRepository } from '../store/webhook.repository';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookSender } from './webhook-sender';

const FIXTURE = path.join(__dirname, '..', '..', 'test', 'delivery-worker.fixture.js');

function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [FIXTURE], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}

// Real Postgres, Redis and processes on a shared machine: generous limits, the assertions decide.
jest.setTimeout(60_000);
describe('webhook delivery when its worker is killed with SIGKILL mid-delivery', () => {
  const prefix = `whk${randomBytes(4).toString('hex')}.`;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let pool: SqlPool;
  let queues: QueueFactory;
  let server: Server;
  const hits: string[] = [];
  const held: ServerResponse[] = [];
  let firstHit: () => void;
  const firstArrived = new Promise<void>((resolve) => (firstHit = resolve));
  let delivered: () => void;
  const deliveredOnce = new Promise<void>((resolve) => (delivered = resolve));

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'webhookcrash');
    pool = createSqlPool(db.url);
    prisma = createPrismaClient(pool);
    queues = createWebhookQueues(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
    server = createServer((request, response) => {
      request.resume();
      hits.push(String(request.headers['webhook-id']));
      if (hits.length === 1) {
        // The first attempt is left hanging: its worker dies while waiting for the answer.
        held.push(response);
        firstHit();
        return;
      }
      response.writeHead(204).end();
      delivered();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    held.forEach((response) => response.destroy());
    server.closeAllConnections();
    server.close();
    await queues.queue(WEBHOOK_QUEUE).obliterate({ force: true });
    await queues.close();
    await prisma.$disconnect();
    await db.drop();
  });

  it('delivers after a worker restarts, under the same webhook-id', async () => {
    const env = { DATABASE_URL: db.url, NATS_PREFIX: prefix, WEBHOOK_LOCK_MS: '1000', WEBHOOK_TIMEOUT_MS: '20000', WEBHOOK_ALLOW_PRIVATE: 'true' };
    const first = await startWorker(env);
    const repository = new WebhookRepository(prisma, pool);
    const sender = new WebhookSender({ allowPrivate: true }, 1000);
    const delivery = new WebhookDeliveryService(repository, new WebhookSecretService(repository, 60), sender, queues.queue(WEBHOOK_QUEUE), {
      baseMs: 100,
      maxMs: 1000,
      maxAttempts: 5,
    });
    const taskId = `task-${randomUUID()}`;
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await new WebhookOutbox(repository, delivery).publish([
      { tenantId: randomUUID(), subjectId: taskId, eventType: 'complete', seq: 2, url, payload: { taskId } },
    ]);

    await firstArrived;
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const second = await startWorker(env);
    try {
      await deliveredOnce;
      expect(hits).toHaveLength(2);
      expect(hits[1]).toBe(hits[0]);
      const [row] = await repository.listBySubject(taskId);
      expect((await repository.find(row!.id))!.status).toMatch(/delivered|pending/);
    } finally {
      second.kill('SIGKILL');
      await sender.close();
    }
  }, 30_000);
});
