import { SUBJECTS } from '@gateway/contracts';
import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type SqlPool, type TestDatabase } from '@gateway/db';
import { connectNats, NatsBus } from '@gateway/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { MediaTaskRepository } from './media-task.repository';
import { TaskEndWaiter } from './task-end-waiter.service';

/** The same waiter reading rows only once a minute: within a test, only a broadcast can wake it early. */
class BroadcastOnlyWaiter extends TaskEndWaiter {
  protected override readonly fallbackReadMs = 60_000;
}

/** A reply waiting for a task's end, on a real NATS server and Postgres: woken by the broadcast, by the row read when one is lost, or not at all. */
describe('TaskEndWaiter', () => {
  const prefix = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;
  let db: TestDatabase;
  let pool: SqlPool;
  let prisma: PrismaClient;
  let connection: NatsConnection;
  let bus: NatsBus;
  let tasks: MediaTaskRepository;
  let waiter: TaskEndWaiter;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'waiter');
    pool = createSqlPool(db.url, 4);
    prisma = createPrismaClient(pool);
    connection = await connectNats('nats://127.0.0.1:4222', 'waiter-spec');
    bus = new NatsBus(connection, prefix);
    tasks = new MediaTaskRepository(prisma, pool);
    waiter = new TaskEndWaiter(bus, tasks);
  });

  afterAll(async () => {
    waiter.onModuleDestroy();
    await connection.drain();
    await prisma.$disconnect();
    await db.drop();
  });

  const liveTask = () =>
    tasks.create({
      id: `img_${randomUUID().replace(/-/g, '')}`,
      tenantId: randomUUID(),
      keyId: 'k',
      family: 'oaic',
      route: 'oaic.images.generations',
      queryKind: 'images',
      model: 'm',
      channelId: 'c',
      protocol: 'kling',
      upstreamTaskId: 'u',
      state: 'submitted',
      job: { output: 'image', nativeKind: 'generations', prompt: 'p', images: 1 },
      hold: null,
      clientRequestId: null,
      deadlineAt: new Date(Date.now() + 60_000),
    });

  it('answers on the broadcast of the end, before its deadline', async () => {
    const broadcastOnly = new BroadcastOnlyWaiter(bus, tasks);
    try {
      const task = await liveTask();
      const started = Date.now();
      // The deadline's own row read would also find the end: the answer must come well before it.
      const waiting = broadcastOnly.wait(task.id, 8000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await tasks.finish(task.id, { state: 'succeeded', results: [], usage: { images: 1 } })).toBe(true);
      bus.publish(SUBJECTS.media.taskEnded, { taskId: task.id });
      expect(await waiting).toMatchObject({ id: task.id, state: 'succeeded', usage: { images: 1 } });
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      broadcastOnly.onModuleDestroy();
    }
  });

  it('finds an end whose broadcast was lost by reading the row', async () => {
    const task = await liveTask();
    const waiting = waiter.wait(task.id, 10_000);
    await tasks.finish(task.id, { state: 'failed', errorCode: 'failed', errorMessage: 'upstream said no' });
    expect(await waiting).toMatchObject({ id: task.id, state: 'failed', errorMessage: 'upstream said no' });
  });

  it('gives null for a task still running at the deadline', async () => {
    const task = await liveTask();
    expect(await waiter.wait(task.id, 300)).toBeNull();
    expect((await tasks.findById(task.id))?.state).toBe('submitted');
  });
});
