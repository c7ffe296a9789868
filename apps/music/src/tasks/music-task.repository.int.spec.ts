import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type SqlPool, type TestDatabase } from '@gateway/db';
import { randomUUID } from 'node:crypto';
import { MusicTaskRepository } from './music-task.repository';

/** A client's request and an upstream's strings reach music_tasks: text and jsonb refuse NUL and lone surrogates, so rows are written cleaned. */
describe('MusicTaskRepository on Postgres', () => {
  let db: TestDatabase;
  let pool: SqlPool;
  let prisma: PrismaClient;
  let tasks: MusicTaskRepository;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'music_tasks');
    pool = createSqlPool(db.url, 2);
    prisma = createPrismaClient(pool);
    tasks = new MusicTaskRepository(prisma, pool);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  const create = () =>
    tasks.create({
      id: randomUUID().replace(/-/g, ''),
      tenantId: randomUUID(),
      keyId: 'k',
      route: 'music.generate',
      queryKind: 'task',
      model: 'sandbox-music',
      channelId: 'c',
      tokenHash: randomUUID(),
      callBackUrl: 'https://hooks.example.com/in',
      request: { prompt: 'a\u0000b\uD800', ['sty\u0000le']: 'x' },
      deadlineAt: new Date(Date.now() + 60_000),
    });

  it('writes a request holding NUL and a lone surrogate, cleaned', async () => {
    const task = await create();
    expect((await tasks.find(task.id))?.request).toEqual({ prompt: 'ab\uFFFD', style: 'x' });
  });

  it('records an upstream task id and moves to a failure whose message hold NUL, cleaned', async () => {
    const task = await create();
    await tasks.setUpstream(task.id, 'up\u00001', null);
    expect(await tasks.move(task.id, 'PENDING', 'CREATE_TASK_FAILED', { errorCode: 500, errorMessage: 'no\u0000pe\uDC00' }, true)).toBe(true);
    expect(await tasks.find(task.id)).toMatchObject({ upstreamTaskId: 'up1', status: 'CREATE_TASK_FAILED', errorMessage: 'nope\uFFFD' });
  });

  it('moves with an upstream task id and a result holding NUL, cleaned', async () => {
    const task = await create();
    expect(await tasks.move(task.id, 'PENDING', 'SUCCESS', { upstreamTaskId: 'u\u00002', result: { title: 't\u0000' } }, true)).toBe(true);
    expect(await tasks.find(task.id)).toMatchObject({ upstreamTaskId: 'u2', status: 'SUCCESS', result: { title: 't' } });
  });
  it('batches concurrent callbacks yet lets only one of two moves of a task win, and finds each task by its own token', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => create()));
    const found = await Promise.all([...all.map((task) => tasks.findByTokenHash(task.tokenHash)), tasks.findByTokenHash('no-such-token')]);
    expect(found.map((task) => task?.id ?? null)).toEqual([...all.map((task) => task.id), null]);
    const [first, duplicate, ...others] = await Promise.all([
      tasks.move(all[0]!.id, 'PENDING', 'TEXT_SUCCESS', {}, false),
      tasks.move(all[0]!.id, 'PENDING', 'SUCCESS', { result: { title: 'late' } }, true),
      ...all.slice(1).map((task) => tasks.move(task.id, 'PENDING', 'SUCCESS', { upstreamTaskId: `up-${task.id}` }, true)),
    ]);
    expect([first, duplicate]).toEqual([true, false]);
    expect(others.every((moved) => moved)).toBe(true);
    expect(await tasks.find(all[0]!.id)).toMatchObject({ status: 'TEXT_SUCCESS', result: null, completedAt: null });
    const last = await tasks.find(all[9]!.id);
    expect(last).toMatchObject({ status: 'SUCCESS', upstreamTaskId: `up-${all[9]!.id}` });
    expect(Math.abs(last!.completedAt!.getTime() - Date.now())).toBeLessThan(60_000);
  });
});
