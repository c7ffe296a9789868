import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type SqlPool, type TestDatabase } from '@gateway/db';
import { QueueFactory, queuePrefix } from '@gateway/platform';
import { CallbackTokenSigner } from '@gateway/storage';
import { randomBytes, randomUUID } from 'node:crypto';
import type { MediaEnv } from '../config/media-env';
import { MEDIA_QUEUES } from '../tasks/media-queues';
import { MediaTaskRepository } from '../tasks/media-task.repository';
import { PollScheduler } from '../tasks/poll-scheduler.service';
import { MediaCallbackService } from './media-callback.service';

/** The callback intake on a real Postgres and Redis queue: a hint poll for a live task's own token, nothing else. */
describe('MediaCallbackService', () => {
  const env = { PUBLIC_BASE_URL: 'https://gw.example.com', MEDIA_POLL_INTERVAL_MS: 1000, MEDIA_POLL_MAX_BACKOFF_MS: 30_000 } as MediaEnv;
  const signer = new CallbackTokenSigner('callback-spec-secret-0123456789');
  let db: TestDatabase;
  let pool: SqlPool;
  let prisma: PrismaClient;
  let queues: QueueFactory;
  let tasks: MediaTaskRepository;
  let callbacks: MediaCallbackService;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'mcallback');
    pool = createSqlPool(db.url, 4);
    prisma = createPrismaClient(pool);
    queues = new QueueFactory({ redis: 'redis://127.0.0.1:6379', prefix: queuePrefix('media', `cb${randomBytes(4).toString('hex')}.`) });
    tasks = new MediaTaskRepository(prisma, pool);
    callbacks = new MediaCallbackService(signer, tasks, new PollScheduler(queues, env), env);
  });

  afterAll(async () => {
    await queues.queue(MEDIA_QUEUES.poll).obliterate({ force: true });
    await queues.close();
    await prisma.$disconnect();
    // The repository's statements run on the pool alone: Prisma, never connected, leaves it open.
    if (!pool.ended) await pool.end();
    await db.drop();
  });

  const liveTask = () =>
    tasks.create({
      id: `task_${randomUUID().replace(/-/g, '')}`,
      tenantId: randomUUID(),
      keyId: 'k',
      clientRequestId: null,
      family: 'nativemedia',
      route: 'nativemedia.images.generations',
      queryKind: 'images',
      model: 'm',
      channelId: 'c',
      protocol: 'kling',
      upstreamTaskId: 'u',
      state: 'submitted',
      job: { output: 'image', nativeKind: 'generations', prompt: 'p', images: 1 },
      hold: null,
      deadlineAt: new Date(Date.now() + 60_000),
    });
  const hints = async (taskId: string) =>
    (await queues.queue(MEDIA_QUEUES.poll).getJobs(['waiting', 'delayed'])).filter((job) => job.id?.startsWith(`hint-${taskId}-`));

  it('gives each task its own URL on the public origin', async () => {
    const task = await liveTask();
    const url = callbacks.urlFor(task.id)!;
    expect(url).toMatch(new RegExp(`^https://gw\\.example\\.com/media/callbacks/${task.id}\\.[A-Za-z0-9_-]{43}$`));
    expect(new MediaCallbackService(signer, tasks, new PollScheduler(queues, env), { ...env, PUBLIC_BASE_URL: undefined }).urlFor(task.id)).toBeUndefined();
  });

  it('queues one hint poll for a live task however often its callback comes, and moves nothing itself', async () => {
    const task = await liveTask();
    const token = signer.tokenOf(task.id);
    for (let i = 0; i < 3; i++) expect(await callbacks.intake({ token })).toEqual({ accepted: true });
    expect((await hints(task.id)).map((job) => job.data)).toEqual([{ taskId: task.id, hint: true }]);
    expect(await tasks.findById(task.id)).toMatchObject({ state: 'submitted', polls: 0, finishedAt: null });
  });

  it('refuses a token it did not sign, and queues nothing for it', async () => {
    const task = await liveTask();
    const forged = `${task.id}.${'A'.repeat(43)}`;
    expect(await callbacks.intake({ token: forged })).toEqual({ accepted: false });
    expect(await callbacks.intake({ token: signer.tokenOf(`task_${'0'.repeat(32)}`) })).toEqual({ accepted: false });
    expect(await hints(task.id)).toEqual([]);
    await expect(callbacks.intake({ token: 'not a token' })).rejects.toThrow();
  });

  it('queues nothing for a task that has already ended (a late callback)', async () => {
    const task = await liveTask();
    expect(await tasks.finish(task.id, { state: 'succeeded', results: [], usage: { images: 1 } })).toBe(true);
    const ended = await tasks.findById(task.id);
    expect(await callbacks.intake({ token: signer.tokenOf(task.id) })).toEqual({ accepted: true });
    expect(await hints(task.id)).toEqual([]);
    expect(await tasks.findById(task.id)).toEqual(ended);
  });
});
