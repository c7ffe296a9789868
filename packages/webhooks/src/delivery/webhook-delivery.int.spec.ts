import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import { scrapeMetrics, type QueueFactory } from '@gateway/platform';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookOutbox } from '../outbox/webhook-outbox';
import { createWebhookQueues, WEBHOOK_QUEUE } from '../queue/webhook-queue';
import { WebhookSecretService } from '../secrets/webhook-secret.service';
import { WebhookRepository } from '../store/webhook.repository';
import { WebhooksEnv } from '../webhooks-env';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookSender } from './webhook-sender';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs = 25_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// Real Postgres, Redis and processes on a shared machine: generous limits, the assertions decide.
jest.setTimeout(60_000);
describe('webhook delivery against real Postgres, Redis and an HTTP receiver', () => {
  const env = WebhooksEnv.parse({ WEBHOOK_RETRY_BASE_MS: '40', WEBHOOK_MAX_ATTEMPTS: '4', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_ALLOW_PRIVATE: 'true' });
  const prefix = `wh${randomBytes(4).toString('hex')}.`;
  let db: TestDatabase;
  let prisma: PrismaClient;
  let queues: QueueFactory;
  let processor: WebhookDeliveryProcessor;
  let sender: WebhookSender;
  let outbox: WebhookOutbox;
  let secrets: WebhookSecretService;
  let repository: WebhookRepository;
  let server: Server;
  let baseUrl: string;
  const received = new Map<string, Received[]>();
  /** Per path: how many requests to fail before answering 204; 'hang' never answers. */
  const behaviour = new Map<string, number | 'hang'>();

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'webhooks');
    // One pool under both, as in the service: Prisma for the listing and secrets, prepared statements for the hot path.
    const pool = createSqlPool(db.url);
    prisma = createPrismaClient(pool);
    repository = new WebhookRepository(prisma, pool);
    secrets = new WebhookSecretService(repository, 60);
    sender = new WebhookSender({ allowPrivate: true }, env.WEBHOOK_TIMEOUT_MS);
    queues = createWebhookQueues(env.REDIS_URL, prefix);
    const delivery = new WebhookDeliveryService(repository, secrets, sender, queues.queue(WEBHOOK_QUEUE), { baseMs: 40, maxMs: 200, maxAttempts: 4 });
    processor = new WebhookDeliveryProcessor(delivery, queues, env);
    processor.start();
    outbox = new WebhookOutbox(repository, delivery);
    server = createServer(async (request, response) => {
      const body = await readBody(request);
      const path = request.url ?? '/';
      const mode = behaviour.get(path) ?? 0;
      if (mode === 'hang') return;
      const list = received.get(path) ?? [];
      list.push({ headers: request.headers, body });
      received.set(path, list);
      if (typeof mode === 'number' && mode > 0) {
        behaviour.set(path, mode - 1);
        response.writeHead(503).end();
        return;
      }
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await queues.queue(WEBHOOK_QUEUE).obliterate({ force: true });
    await queues.close();
    await sender.close();
    server.closeAllConnections();
    server.close();
    await prisma.$disconnect();
    await db.drop();
  });

  const events = (tenantId: string, taskId: string, url: string) =>
    (['text', 'first', 'complete'] as const).map((eventType, seq) => ({
      tenantId,
      subjectId: taskId,
      eventType,
      seq,
      url,
      payload: { code: 200, msg: 'success', data: { callbackType: eventType, taskId } },
    }));

  it('delivers in order through a receiver outage, signed so standardwebhooks verifies, each stage under one stable id', async () => {
    const tenantId = randomUUID();
    const taskId = `task-${randomUUID()}`;
    behaviour.set('/down3', 3);
    expect(await outbox.publish(events(tenantId, taskId, `${baseUrl}/down3`))).toBe(3);
    // A duplicated source event records nothing new.
    expect(await outbox.publish(events(tenantId, taskId, `${baseUrl}/down3`).slice(2))).toBe(0);
    await waitUntil(async () => (await repository.listBySubject(taskId)).every((d) => d.status === 'delivered'));

    const secret = (await secrets.signingSecrets(tenantId))[0]!;
    const verifier = new Webhook(secret);
    const hits = received.get('/down3')!;
    expect(hits).toHaveLength(6);
    const firstIds = hits.slice(0, 4).map((hit) => hit.headers['webhook-id']);
    expect(new Set(firstIds).size).toBe(1);
    const unique = new Map<string, string>();
    for (const hit of hits) {
      const payload = verifier.verify(hit.body, hit.headers as Record<string, string>) as { data: { callbackType: string } };
      if (!unique.has(String(hit.headers['webhook-id']))) unique.set(String(hit.headers['webhook-id']), payload.data.callbackType);
    }
    expect([...unique.values()]).toEqual(['text', 'first', 'complete']);

    const listed = await repository.listBySubject(taskId);
    expect(listed[0]!.history.map((a) => a.outcome)).toEqual(['failed', 'failed', 'failed', 'delivered']);
    expect(listed[0]!.history[0]!.responseStatus).toBe(503);
    expect(listed[0]!.history[0]!.nextAttemptAt).not.toBeNull();
    const metrics = await scrapeMetrics();
    expect(metrics).toMatch(/gateway_webhook_deliveries_total\{outcome="retrying"\} [1-9]/);
    expect(metrics).toMatch(/gateway_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
  });

  it('dead-letters after the last attempt, counting a receiver that times out as a failure', async () => {
    const tenantId = randomUUID();
    const taskId = `task-${randomUUID()}`;
    behaviour.set('/hang', 'hang');
    await outbox.publish(events(tenantId, taskId, `${baseUrl}/hang`).slice(0, 1));
    await waitUntil(async () => (await repository.listBySubject(taskId))[0]!.status === 'dead');
    const [dead] = await repository.listBySubject(taskId);
    expect(dead!.history.map((a) => a.outcome)).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
  });

  it('refuses a receiver at a private address without sending', async () => {
    const strict = new WebhookSender({ allowPrivate: false }, 500);
    const result = await strict.send('https://10.0.0.7/hook', { 'webhook-id': 'msg_x', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' }, '{}');
    expect(result).toMatchObject({ outcome: 'refused', responseStatus: null });
    expect(result.error).toMatch(/private/);
    await strict.close();
  });

  it('signs with the rotated-out secret too during its grace window', async () => {
    const tenantId = randomUUID();
    const before = (await secrets.signingSecrets(tenantId))[0]!;
    const rotated = await secrets.rotate(tenantId);
    expect(rotated.previousValidUntil).not.toBeNull();
    expect(await secrets.signingSecrets(tenantId)).toEqual([rotated.secret, before]);
  });
});
