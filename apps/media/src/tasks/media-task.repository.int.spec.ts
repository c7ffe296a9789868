import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type SqlPool, type TestDatabase } from '@gateway/db';
import { randomUUID } from 'node:crypto';
import { MediaTaskRepository, type NewMediaTask } from './media-task.repository';

/**
 * Client strings reach media_tasks (the prompt in `request`) and upstream strings reach it too (the
 * upstream task id, an error message): text and jsonb refuse NUL and lone surrogates, so the row is
 * written cleaned instead of failing the create with a 500.
 */
describe('MediaTaskRepository on Postgres', () => {
  let db: TestDatabase;
  let pool: SqlPool;
  let prisma: PrismaClient;
  let tasks: MediaTaskRepository;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'media_tasks');
    pool = createSqlPool(db.url, 2);
    prisma = createPrismaClient(pool);
    tasks = new MediaTaskRepository(prisma, pool);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    // The statements of this spec run on the pool alone: Prisma, never connected, leaves it open.
    if (!pool.ended) await pool.end();
    await db.drop();
  });

  const task = (prompt: string, upstreamTaskId: string): NewMediaTask => ({
    id: `task_${randomUUID().replace(/-/g, '')}`,
    tenantId: randomUUID(),
    keyId: 'k',
    family: 'nativemedia',
    route: 'nativemedia.videos.text2video.create',
    queryKind: 'text2video',
    model: 'sandbox-kling',
    channelId: 'c',
    protocol: 'kling',
    upstreamTaskId,
    state: 'submitted',
    job: {
      output: 'video',
      nativeKind: 'text2video',
      prompt,
      negativePrompt: '\uDC00x\u0000',
      seconds: 5,
      imageList: [{ url: 'https://images.example.com/a\u0000.png' }],
    },
    hold: null,
    clientRequestId: null,
    deadlineAt: new Date(Date.now() + 60_000),
  });

  it('writes a task whose prompt holds NUL and a lone surrogate, cleaned', async () => {
    const created = await tasks.create(task('a\u0000b\uD800c', 'up\u00001'));
    const row = await tasks.findById(created.id);
    expect(row?.job).toMatchObject({ prompt: 'ab\uFFFDc', negativePrompt: '\uFFFDx', imageList: [{ url: 'https://images.example.com/a.png' }] });
    expect(row?.upstreamTaskId).toBe('up1');
  });

  it('ends a task whose upstream error holds NUL and a lone surrogate, cleaned', async () => {
    const created = await tasks.create(task('p', 'u'));
    expect(await tasks.finish(created.id, { state: 'failed', errorCode: 'bad\u0000code', errorMessage: 'upstream \u0000said\uDBFF no' })).toBe(true);
    const row = await tasks.findById(created.id);
    expect(row).toMatchObject({ state: 'failed', errorCode: 'badcode', errorMessage: 'upstream said\uFFFD no' });
  });

  it('ends a task whose long upstream message is cut inside a surrogate pair', async () => {
    const created = await tasks.create(task('p', 'u'));
    expect(await tasks.finish(created.id, { state: 'failed', errorCode: 'x', errorMessage: 'm'.repeat(1999) + '\u{1F600}' })).toBe(true);
    expect((await tasks.findById(created.id))?.errorMessage).toBe('m'.repeat(1999) + '\uFFFD');
  });

  it('ends a task with results whose stored names hold NUL, cleaned', async () => {
    const created = await tasks.create(task('p', 'u'));
    const results = [{ key: 'media/t/0\u0000.mp4', contentType: 'video/mp4\u0000', size: 3, kind: 'video' as const }];
    expect(await tasks.finish(created.id, { state: 'succeeded', results, usage: { seconds: 5 } })).toBe(true);
    expect((await tasks.findById(created.id))?.results).toEqual([{ key: 'media/t/0.mp4', contentType: 'video/mp4', size: 3, kind: 'video' }]);
  });

  it('writes the creates of one turn together; a row the batch refuses fails only its own create', async () => {
    const good = [task('p1', 'u1'), task('p2', 'u2'), task('p3', 'u3')];
    const bad = { ...task('p4', 'u4'), tenantId: 'not-a-uuid' };
    const results = await Promise.allSettled([tasks.create(good[0]!), tasks.create(bad), tasks.create(good[1]!), tasks.create(good[2]!)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    for (const created of good) {
      expect(await tasks.findById(created.id)).toMatchObject({
        id: created.id,
        tenantId: created.tenantId,
        upstreamTaskId: created.upstreamTaskId,
        state: 'submitted',
        polls: 0,
      });
    }
    expect(await tasks.findById(bad.id)).toBeNull();
  });

  it('keeps the created time it answered with, and the hold', async () => {
    const hold = { holdId: 'h', tenantId: 't', perRequest: false, prices: { perSecond: '1', perImage: '0', perTask: '0' }, heldMicros: '5' };
    const created = await tasks.create({ ...task('p', 'u'), hold, clientRequestId: 'req-1' });
    const row = await tasks.findById(created.id);
    expect(row).toMatchObject({ hold, clientRequestId: 'req-1', createdAt: created.createdAt, updatedAt: created.createdAt });
    expect(row?.deadlineAt.getTime()).toBe(created.deadlineAt.getTime());
  });

  it('ends a task once when many ends of it, and of others, share a turn', async () => {
    const [a, b] = await Promise.all([tasks.create(task('p', 'u')), tasks.create(task('p', 'u'))]);
    const ends = [
      tasks.finish(a.id, { state: 'succeeded', usage: { seconds: 5 } }),
      tasks.finish(a.id, { state: 'failed', errorCode: 'x', errorMessage: 'm' }),
      tasks.finish(b.id, { state: 'failed', errorCode: 'y', errorMessage: 'n' }),
      tasks.finish(a.id, { state: 'succeeded' }),
    ];
    expect(await Promise.all(ends)).toEqual([true, false, true, false]);
    expect(await tasks.findById(a.id)).toMatchObject({ state: 'succeeded', progress: 100, usage: { seconds: 5 }, errorCode: null });
    expect(await tasks.findById(b.id)).toMatchObject({ state: 'failed', errorCode: 'y', errorMessage: 'n', results: [] });
  });

  it('counts every poll of a turn, two of one task included, and none of an ended task', async () => {
    const [live, ended] = await Promise.all([tasks.create(task('p', 'u')), tasks.create(task('p', 'u'))]);
    await tasks.finish(ended.id, { state: 'cancelled' });
    await Promise.all([tasks.recordProgress(live.id, 'running', 40), tasks.countPoll(live.id), tasks.recordProgress(ended.id, 'running', 10)]);
    expect(await tasks.findById(live.id)).toMatchObject({ state: 'running', progress: 40, polls: 2 });
    expect(await tasks.findById(ended.id)).toMatchObject({ state: 'cancelled', polls: 0 });
    await tasks.markBilled(live.id);
    expect((await tasks.findById(live.id))?.hold).toBeNull();
  });
});
