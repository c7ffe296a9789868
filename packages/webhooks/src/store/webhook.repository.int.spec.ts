import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import { randomUUID } from 'node:crypto';
import { WebhookRepository, type NewDelivery } from './webhook.repository';

// The hot-path statements (prepared, on the pg pool) against a real Postgres, read back through Prisma.
jest.setTimeout(60_000);
describe('webhook repository statements', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let repository: WebhookRepository;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'webhookrepo');
    const pool = createSqlPool(db.url);
    prisma = createPrismaClient(pool);
    repository = new WebhookRepository(prisma, pool);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  const delivery = (subjectId: string, eventType: string, seq: number, payload: unknown = { eventType }): NewDelivery => ({
    id: `msg_${randomUUID().replace(/-/g, '')}`,
    tenantId: randomUUID(),
    subjectId,
    eventType,
    seq,
    url: 'https://hooks.example.com/in',
    payload,
  });

  it('records one delivery per (subject, event type), in a batch or across batches, and heads each subject by seq', async () => {
    const a = `task-${randomUUID()}`;
    const b = `task-${randomUUID()}`;
    expect((await repository.insert([delivery(a, 'complete', 2), delivery(a, 'first', 1), delivery(a, 'first', 1), delivery(b, 'text', 0)])).inserted).toBe(3);
    expect((await repository.insert([delivery(a, 'first', 1)])).inserted).toBe(0);
    const head = await repository.headOf(a);
    expect(head).toMatchObject({
      subjectId: a,
      eventType: 'first',
      seq: 1,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: null,
      payload: { eventType: 'first' },
    });
    expect(Math.abs(head!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    const due = await repository.dueOf([a, b, `task-${randomUUID()}`]);
    expect(due.map((d) => [d.subjectId, d.id]).sort()).toEqual(
      [
        [a, head!.id],
        [b, (await repository.headOf(b))!.id],
      ].sort(),
    );
    expect(await repository.dueOf([a])).toEqual([{ id: head!.id, subjectId: a, attempts: 0, nextAttemptAt: null }]);
  });

  it('settles a head from its own insert only when the subject had none pending and every row of it went in', async () => {
    const [fresh, busy, raced, done] = [1, 2, 3, 4].map(() => `task-${randomUUID()}`);
    await repository.insert([delivery(busy, 'text', 0)]);
    await repository.insert([delivery(raced, 'text', 0)]);
    await repository.insert([delivery(done, 'text', 0)]);
    const ended = (await repository.headOf(done))!;
    const record = { deliveryId: ended.id, attempt: 1, outcome: 'delivered' as const, responseStatus: 204, latencyMs: 3, error: null };
    await repository.recordAttempt({ ...record, startedAt: new Date(), nextAttemptAt: null }, 'delivered');
    const [first, complete] = [delivery(fresh, 'first', 1), delivery(fresh, 'complete', 2)];
    const [alsoFirst, alsoComplete] = [delivery(fresh, 'first', 1), delivery(fresh, 'complete', 2)];
    const [racedText, racedFirst] = [delivery(raced, 'text', 0), delivery(raced, 'first', 1)];
    const after = delivery(done, 'complete', 2);
    const [one, two, three, four] = await Promise.all([
      repository.insert([complete, first]),
      repository.insert([delivery(busy, 'first', 1)]),
      repository.insert([racedText, racedFirst]),
      repository.insert([after]),
    ]);
    expect(one).toEqual({ inserted: 2, heads: [{ id: first.id, subjectId: fresh, attempts: 0, nextAttemptAt: null }], unsettled: [] });
    expect(two).toEqual({ inserted: 1, heads: [], unsettled: [busy] });
    expect(three).toEqual({ inserted: 1, heads: [], unsettled: [raced] });
    expect(four).toEqual({ inserted: 1, heads: [{ id: after.id, subjectId: done, attempts: 0, nextAttemptAt: null }], unsettled: [] });
    expect(await repository.insert([alsoFirst, alsoComplete])).toEqual({ inserted: 0, heads: [], unsettled: [fresh] });
    expect((await repository.headOf(fresh))!.id).toBe(first.id);
  });

  it('stores a payload carrying NUL characters (dropped) instead of failing the insert', async () => {
    const subject = `task-${randomUUID()}`;
    expect((await repository.insert([delivery(subject, 'text', 0, { lyrics: 'la\u0000la' })])).inserted).toBe(1);
    expect((await repository.headOf(subject))!.payload).toEqual({ lyrics: 'lala' });
  });

  it('records an attempt and moves the delivery in one statement; an ended delivery keeps its state but the attempt is kept', async () => {
    const subject = `task-${randomUUID()}`;
    await repository.insert([delivery(subject, 'text', 0), delivery(subject, 'first', 1)]);
    const head = (await repository.headOf(subject))!;
    const startedAt = new Date(Date.now() - 1234);
    const nextAttemptAt = new Date(Date.now() + 60_000);
    const failed = {
      deliveryId: head.id,
      attempt: 1,
      outcome: 'failed' as const,
      responseStatus: 503,
      latencyMs: 12,
      error: 'the receiver answered 503',
      startedAt,
    };
    expect(await repository.recordAttempt({ ...failed, nextAttemptAt }, 'pending')).toBe(true);
    let [row] = await repository.listBySubject(subject);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt, deliveredAt: null });
    expect(row!.history).toEqual([expect.objectContaining({ attempt: 1, outcome: 'failed', responseStatus: 503, latencyMs: 12, startedAt, nextAttemptAt })]);
    expect((await repository.dueOf([subject]))[0]).toMatchObject({ id: head.id, attempts: 1, nextAttemptAt });

    const delivered = { ...failed, attempt: 2, outcome: 'delivered' as const, responseStatus: 204, error: null, nextAttemptAt: null };
    expect(await repository.recordAttempt(delivered, 'delivered')).toBe(true);
    expect(await repository.recordAttempt({ ...delivered, attempt: 3 }, 'delivered')).toBe(false);
    [row] = await repository.listBySubject(subject);
    expect(row).toMatchObject({ status: 'delivered', attempts: 2, nextAttemptAt: null });
    expect(Math.abs(row!.deliveredAt!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(row!.history.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect((await repository.headOf(subject))!.eventType).toBe('first');
  });
  it('answers each of many concurrent calls from its own rows though they share statements, and one bad row fails only its caller', async () => {
    const subjects = Array.from({ length: 20 }, () => `task-${randomUUID()}`);
    const counts = await Promise.all(
      subjects.map(async (subject, i) => (await repository.insert([delivery(subject, 'first', 1, { i }), delivery(subject, 'complete', 2)])).inserted),
    );
    expect(counts).toEqual(subjects.map(() => 2));
    const heads = await Promise.all(subjects.map((subject) => repository.headOf(subject)));
    expect(heads.map((head) => [head!.subjectId, head!.eventType, head!.payload])).toEqual(subjects.map((subject, i) => [subject, 'first', { i }]));

    const attempt = (deliveryId: string, n: number) => ({
      deliveryId,
      attempt: n,
      outcome: 'delivered' as const,
      responseStatus: 204,
      latencyMs: 1,
      error: null,
      startedAt: new Date(),
      nextAttemptAt: null,
    });
    const [twiceA, twiceB, missing, ...rest] = await Promise.allSettled([
      repository.recordAttempt(attempt(heads[0]!.id, 1), 'delivered'),
      repository.recordAttempt(attempt(heads[0]!.id, 2), 'delivered'),
      repository.recordAttempt(attempt('msg_missing', 1), 'delivered'),
      ...heads.slice(1).map((head) => repository.recordAttempt(attempt(head!.id, 1), 'delivered')),
    ]);
    // Two records of one delivery: both kept, only the first moves it.
    expect([twiceA, twiceB]).toEqual([
      { status: 'fulfilled', value: true },
      { status: 'fulfilled', value: false },
    ]);
    expect((await repository.listBySubject(subjects[0]!))[0]!.history.map((a) => a.attempt)).toEqual([1, 2]);
    expect(missing.status).toBe('rejected');
    expect(rest.every((result) => result.status === 'fulfilled' && result.value === true)).toBe(true);
    const due = await repository.dueOf(subjects);
    expect(due.map((d) => d.subjectId).sort()).toEqual([...subjects].sort());
    expect(new Set(due.map((d) => d.id))).toEqual(new Set((await Promise.all(subjects.map((subject) => repository.headOf(subject)))).map((head) => head!.id)));
    expect((await Promise.all(subjects.map((subject) => repository.headOf(subject)))).every((head) => head!.eventType === 'complete')).toBe(true);
  });

  it("pages a tenant's deliveries newest first by keyset, every one once, and finds one only for its own tenant", async () => {
    const tenantId = randomUUID();
    const subject = `task-${randomUUID()}`;
    const mine = Array.from({ length: 7 }, (_, i) => ({ ...delivery(subject, `event-${i}`, i), tenantId }));
    await repository.insert(mine);
    // Equal creation times for some, so the id must break the tie.
    const at = new Date(Date.now() - 60_000);
    await prisma.webhookDelivery.updateMany({ where: { id: { in: mine.slice(0, 4).map((d) => d.id) } }, data: { createdAt: at } });
    await repository.insert([delivery(`task-${randomUUID()}`, 'other', 0)]);
    const seen: string[] = [];
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const page = await repository.listForTenant(tenantId, { after, limit: 3 });
      seen.push(...page.map((d) => d.id));
      if (page.length < 3) break;
      after = { at: page.at(-1)!.createdAt, id: page.at(-1)!.id };
    }
    const rows = await prisma.webhookDelivery.findMany({ where: { tenantId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    expect(seen).toEqual(rows.map((d) => d.id));
    expect(new Set(seen).size).toBe(7);
    expect(await repository.listForTenant(tenantId, { status: 'dead', after: null, limit: 10 })).toEqual([]);
    expect(await repository.findForTenant(mine[0]!.id, tenantId)).toMatchObject({ id: mine[0]!.id, history: [] });
    expect(await repository.findForTenant(mine[0]!.id, randomUUID())).toBeNull();
  });
});
