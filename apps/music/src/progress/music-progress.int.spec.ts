import type { MusicTaskStatus } from '@gateway/contracts';
import { TaskBilling, type EndedTask, type TaskUsagePublisher } from '@gateway/billing';
import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type SqlPool, type TestDatabase } from '@gateway/db';
import { QueueFactory, queuePrefix } from '@gateway/platform';
import type { MusicProgress } from '@gateway/providers';
import { LocalObjectStore, UrlSigner } from '@gateway/storage';
import {
  createWebhookQueues,
  deliveryJobId,
  WEBHOOK_QUEUE,
  WebhookDeliveryService,
  WebhookOutbox,
  WebhookRepository,
  WebhookSecretService,
  WebhookSender,
  type WebhookJob,
} from '@gateway/webhooks';
import type { Queue } from 'bullmq';
import { randomBytes, randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { MusicAssetsService } from '../assets/music-assets.service';
import { MusicEnv } from '../config/music-env';
import { MusicTaskRepository } from '../tasks/music-task.repository';
import { isTerminal } from '../tasks/music-task.state';
import { MusicPollProcessor } from './music-poll.processor';
import { MusicPollScheduler, POLL_QUEUE } from './music-poll.scheduler';
import { MusicProgressService } from './music-progress.service';

/**
 * A task's move commits before its webhooks are recorded; when the recording never happens (the process
 * dies, Postgres or Redis fails in between), the next report of the task, or the poller's next round,
 * records them; so with its billing and usage record. Real Postgres and Redis; no delivery worker runs,
 * so the queued jobs stay to be seen.
 */
jest.setTimeout(60_000);
describe('music callbacks owed by a move whose webhooks were never recorded', () => {
  const env = MusicEnv.parse({ PUBLIC_BASE_URL: 'https://gateway.example.com' });
  const prefix = `mp${randomBytes(4).toString('hex')}.`;
  let db: TestDatabase;
  let pool: SqlPool;
  let prisma: PrismaClient;
  let tasks: MusicTaskRepository;
  let deliveries: WebhookRepository;
  let webhookQueues: QueueFactory;
  let webhookQueue: Queue<WebhookJob>;
  let musicQueues: QueueFactory;
  let sender: WebhookSender;
  let progress: MusicProgressService;
  let poller: MusicPollProcessor;
  const ended: EndedTask[] = [];
  let usageDown = false;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'music_progress');
    pool = createSqlPool(db.url, 4);
    prisma = createPrismaClient(pool);
    tasks = new MusicTaskRepository(prisma, pool);
    deliveries = new WebhookRepository(prisma, pool);
    webhookQueues = createWebhookQueues(env.REDIS_URL, prefix);
    webhookQueue = webhookQueues.queue<WebhookJob>(WEBHOOK_QUEUE);
    sender = new WebhookSender({ allowPrivate: false }, 1000);
    const delivery = new WebhookDeliveryService(deliveries, new WebhookSecretService(deliveries, 60), sender, webhookQueue, {
      baseMs: 1000,
      maxMs: 1000,
      maxAttempts: 1,
    });
    const assets = new MusicAssetsService(new LocalObjectStore(tmpdir()), { signer: new UrlSigner(randomBytes(16).toString('hex')), ttlSeconds: 60 }, env);
    // These tasks hold nothing, so billing is never called.
    // Usage records go to the usage stream (covered by the e2e suite); here they are only collected.
    const usage = {
      record: async (task: EndedTask) => {
        if (usageDown) throw new Error('the usage stream is down');
        ended.push(task);
      },
    } as unknown as TaskUsagePublisher;
    progress = new MusicProgressService(tasks, assets, new WebhookOutbox(deliveries, delivery), new TaskBilling(null as never), usage);
    musicQueues = new QueueFactory({ redis: env.REDIS_URL, prefix: queuePrefix('music', prefix) });
    // The catalog and upstream are asked only about open tasks; these rounds see ended ones.
    poller = new MusicPollProcessor(musicQueues, tasks, null as never, null as never, progress, new MusicPollScheduler(musicQueues, env), env);
  });

  afterAll(async () => {
    await webhookQueue.obliterate({ force: true });
    await musicQueues.queue(POLL_QUEUE).obliterate({ force: true });
    await webhookQueues.close();
    await musicQueues.close();
    await sender.close();
    await prisma.$disconnect();
    await db.drop();
  });

  /** A song task moved from PENDING to `to` the way a report moves it, with nothing handed to the outbox after. */
  async function movedWithoutWebhooks(to: MusicTaskStatus) {
    const id = randomBytes(16).toString('hex');
    await tasks.create({
      id,
      tenantId: randomUUID(),
      keyId: 'k',
      route: 'music.generate',
      queryKind: 'task',
      model: 'sandbox-music',
      channelId: 'c',
      tokenHash: randomBytes(32).toString('hex'),
      callBackUrl: 'https://hooks.example.com/in',
      request: { prompt: 'a song' },
      deadlineAt: new Date(Date.now() + 60_000),
    });
    await tasks.setUpstream(id, `up-${id}`, null);
    const result = { tracks: [], files: {}, details: { lyrics: 'la la' } };
    expect(await tasks.move(id, 'PENDING', to, { result }, isTerminal(to))).toBe(true);
    expect(await deliveries.listBySubject(id)).toEqual([]);
    return (await tasks.find(id))!;
  }

  const report = (upstreamTaskId: string, stage: MusicProgress['stage']): MusicProgress => ({
    upstreamTaskId,
    stage,
    tracks: [],
    files: {},
    details: { lyrics: 'la la' },
    error: null,
  });

  const recorded = async (taskId: string) => (await deliveries.listBySubject(taskId)).map((d) => [d.eventType, d.status]);

  it('records text, first and complete on a duplicate complete callback after the move to SUCCESS, and queues the first', async () => {
    const task = await movedWithoutWebhooks('SUCCESS');
    expect(await progress.apply(task.id, report(task.upstreamTaskId!, 'complete'), task)).toBe(false);
    expect(await recorded(task.id)).toEqual([
      ['text', 'pending'],
      ['first', 'pending'],
      ['complete', 'pending'],
    ]);
    const [text] = await deliveries.listBySubject(task.id);
    expect(text!.payload).toEqual({ code: 200, msg: 'success', data: { callbackType: 'text', taskId: task.id, data: { lyrics: 'la la' } } });
    expect(await (await webhookQueue.getJob(deliveryJobId(text!.id, 1)))?.getState()).toBe('waiting');

    // Another duplicate records nothing new: the ids (the webhook-ids) stay the first ones.
    const ids = (await deliveries.listBySubject(task.id)).map((d) => d.id);
    expect(await progress.apply(task.id, report(task.upstreamTaskId!, 'first'))).toBe(false);
    expect((await deliveries.listBySubject(task.id)).map((d) => d.id)).toEqual(ids);
  });

  it('records, with the stage a later move reaches, the ones an earlier move never recorded', async () => {
    const task = await movedWithoutWebhooks('TEXT_SUCCESS');
    expect(await progress.apply(task.id, report(task.upstreamTaskId!, 'first'))).toBe(true);
    expect(await recorded(task.id)).toEqual([
      ['text', 'pending'],
      ['first', 'pending'],
    ]);
  });

  it("records them on the poller's next round of an ended task, which is its last", async () => {
    const task = await movedWithoutWebhooks('SUCCESS');
    await poller.poll({ taskId: task.id, round: 3 });
    expect((await recorded(task.id)).map(([type]) => type)).toEqual(['text', 'first', 'complete']);
    expect(await musicQueues.queue(POLL_QUEUE).getJob(`poll-${task.id}-4`)).toBeUndefined();
  });

  it("publishes on a later round the usage record an ended task's writer failed to publish, once", async () => {
    const task = await movedWithoutWebhooks('SUCCESS');
    usageDown = true;
    await poller.poll({ taskId: task.id, round: 5 });
    usageDown = false;
    expect(ended.filter((e) => e.id === task.id)).toEqual([]);
    expect((await tasks.find(task.id))!.billedAt).toBeNull();
    expect(await musicQueues.queue(POLL_QUEUE).getJob(`poll-${task.id}-6`)).toBeDefined();

    await poller.poll({ taskId: task.id, round: 6 });
    await poller.poll({ taskId: task.id, round: 7 });
    expect(ended.filter((e) => e.id === task.id)).toEqual([expect.objectContaining({ kind: 'music_task', result: 'succeeded' })]);
    expect((await tasks.find(task.id))!.billedAt).toBeInstanceOf(Date);
    expect(await musicQueues.queue(POLL_QUEUE).getJob(`poll-${task.id}-7`)).toBeUndefined();
  });

  it('owes nothing for a failed task', async () => {
    const task = await movedWithoutWebhooks('GENERATE_AUDIO_FAILED');
    expect(await progress.apply(task.id, report(task.upstreamTaskId!, 'complete'))).toBe(false);
    await poller.poll({ taskId: task.id, round: 2 });
    expect(await recorded(task.id)).toEqual([]);
  });
});
