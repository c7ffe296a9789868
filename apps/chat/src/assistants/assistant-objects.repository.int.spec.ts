import { randomUUID } from 'node:crypto';
import { createPrismaClient, createTestDatabase, tenantStorage, type PrismaClient, type TestDatabase } from '@gateway/db';
import { AssistantObjectsRepository } from './assistant-objects.repository';

const home = { modelId: 'm', channelId: 'ch', providerId: 'p' };

describe('AssistantObjectsRepository (Postgres)', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let objects: AssistantObjectsRepository;
  const tenant = randomUUID();
  const stranger = randomUUID();
  const ids: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'assistants');
    prisma = createPrismaClient(db.url);
    objects = new AssistantObjectsRepository(prisma);
    for (let i = 0; i < 5; i++) {
      const id = `asst_${i}`;
      ids.push(id);
      await objects.record({ id, kind: 'assistant', tenantId: tenant, ...home, snapshot: { id, object: 'assistant', n: i } });
      // Distinct creation times, so the order is the order of creation.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await objects.record({ id: 'asst_theirs', kind: 'assistant', tenantId: stranger, ...home, snapshot: { id: 'asst_theirs' } });
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  const page = async (query: Parameters<AssistantObjectsRepository['listAssistants']>[1]) => {
    const { data, hasMore } = await objects.listAssistants(tenant, query);
    return { ids: data.map((a) => a.id), hasMore };
  };

  it("keeps threads' and assistants' stored size, counts it toward the tenant's quota within it, and gives it back when they go", async () => {
    const owner = randomUUID();
    expect(await objects.claimStorage(owner, 600n, 1_000n)).toBe(true);
    await objects.record({ id: 'thread_sized', kind: 'thread', tenantId: owner, ...home, stored: { bytes: 600n, tokens: 300n } });
    // Beyond the quota nothing is counted.
    expect(await objects.claimStorage(owner, 401n, 1_000n)).toBe(false);
    expect(await tenantStorage.used(prisma, owner)).toBe(600n);
    expect(await objects.claimStorage(owner, 400n, 1_000n)).toBe(true);
    await objects.growStored('thread_sized', { bytes: 400n, tokens: 200n });
    expect((await objects.storedSizes(owner, ['thread_sized'])).get('thread_sized')).toEqual({ bytes: 1_000n, tokens: 500n });
    // Another tenant sees no size of it.
    expect((await objects.storedSizes(stranger, ['thread_sized'])).size).toBe(0);
    await objects.remove('thread_sized');
    expect(await tenantStorage.used(prisma, owner)).toBe(0n);

    // An assistant's instructions replaced: the claim for the update and the old size give back what the new size does not take.
    expect(await objects.claimStorage(owner, 500n, 1_000n)).toBe(true);
    await objects.record({ id: 'asst_sized', kind: 'assistant', tenantId: owner, ...home, stored: { bytes: 500n, tokens: 250n } });
    expect(await objects.claimStorage(owner, 300n, 1_000n)).toBe(true);
    await objects.replaceStored(owner, 'asst_sized', { bytes: 300n, tokens: 150n }, 300n);
    expect(await tenantStorage.used(prisma, owner)).toBe(300n);
    await objects.remove('asst_sized');
    expect(await tenantStorage.used(prisma, owner)).toBe(0n);
  });

  it('finds an object for its tenant and kind only', async () => {
    expect(await objects.find(tenant, 'assistant', 'asst_0')).toMatchObject({ id: 'asst_0', ...home });
    expect(await objects.find(stranger, 'assistant', 'asst_0')).toBeNull();
    expect(await objects.find(tenant, 'thread', 'asst_0')).toBeNull();
    expect((await objects.newestAssistant(tenant))?.id).toBe('asst_4');
  });

  it("pages the tenant's assistants newest first, or oldest first, by after and before cursors", async () => {
    expect(await page({})).toEqual({ ids: [...ids].reverse(), hasMore: false });
    expect(await page({ limit: 2 })).toEqual({ ids: ['asst_4', 'asst_3'], hasMore: true });
    expect(await page({ limit: 2, after: 'asst_3' })).toEqual({ ids: ['asst_2', 'asst_1'], hasMore: true });
    expect(await page({ limit: 2, after: 'asst_1' })).toEqual({ ids: ['asst_0'], hasMore: false });
    expect(await page({ limit: 2, before: 'asst_1' })).toEqual({ ids: ['asst_3', 'asst_2'], hasMore: true });
    expect(await page({ order: 'asc', limit: 3 })).toEqual({ ids: ['asst_0', 'asst_1', 'asst_2'], hasMore: true });
    expect(await page({ order: 'asc', after: 'asst_2' })).toEqual({ ids: ['asst_3', 'asst_4'], hasMore: false });
    expect(await page({ order: 'asc', before: 'asst_2' })).toEqual({ ids: ['asst_0', 'asst_1'], hasMore: false });
    // Another tenant's id is no cursor here.
    expect(await page({ after: 'asst_theirs' })).toEqual({ ids: [], hasMore: false });
  });

  it('moves an assistant to another home, keeps its snapshot, and forgets it when removed', async () => {
    await objects.update('asst_0', { modelId: 'm2', channelId: 'ch2', providerId: 'p' }, { id: 'asst_0', renamed: true });
    expect(await objects.find(tenant, 'assistant', 'asst_0')).toMatchObject({ modelId: 'm2', channelId: 'ch2' });
    expect((await objects.listAssistants(tenant, { order: 'asc', limit: 1 })).data).toEqual([{ id: 'asst_0', renamed: true }]);
    await objects.remove('asst_0');
    expect(await objects.find(tenant, 'assistant', 'asst_0')).toBeNull();
  });

  it("lets exactly one caller record a run's usage", async () => {
    await objects.record({
      id: 'run_1',
      kind: 'run',
      tenantId: tenant,
      ...home,
      threadId: 'thread_1',
      requestId: randomUUID(),
      keyId: randomUUID(),
      hold: { keyKind: 'payg', billed: null },
    });
    const claims = await Promise.all(Array.from({ length: 5 }, () => objects.claimUsage('run_1')));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const runs = await objects.runs(tenant, ['run_1', 'run_missing']);
    expect([...runs.keys()]).toEqual(['run_1']);
    expect(runs.get('run_1')?.usageRecordedAt).toBeInstanceOf(Date);
    expect((await objects.runs(stranger, ['run_1'])).size).toBe(0);
  });

  it('leases due unrecorded runs oldest first, once per lease, and looks again when told', async () => {
    const run = (id: string, sweepAt?: Date) =>
      objects.record({ id, kind: 'run', tenantId: tenant, ...home, threadId: 'thread_1', requestId: randomUUID(), keyId: randomUUID(), hold: {}, sweepAt });
    await run('run_due_1', new Date(Date.now() - 1000));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await run('run_due_2');
    await run('run_later', new Date(Date.now() + 60_000));
    // Two replicas at once share the due runs out; neither gets the recorded run_1 or the one not due yet.
    const [first, second] = await Promise.all([objects.leaseUnrecordedRuns(10, 60_000), objects.leaseUnrecordedRuns(10, 60_000)]);
    const leased = [...first, ...second].map((r) => r.id);
    expect(leased.sort()).toEqual(['run_due_1', 'run_due_2']);
    // The lease that took run_due_1 took it first (when the two split the runs, each holds one).
    const one = [first, second].find((lease) => lease.some((r) => r.id === 'run_due_1'))!;
    expect(one[0]).toMatchObject({ id: 'run_due_1', kind: 'run', threadId: 'thread_1', usageRecordedAt: null, ...home });
    expect(one[0]!.createdAt).toBeInstanceOf(Date);
    expect(await objects.leaseUnrecordedRuns(10, 60_000)).toEqual([]);
    await objects.deferRun('run_due_2', new Date(Date.now() - 1));
    expect((await objects.leaseUnrecordedRuns(10, 60_000)).map((r) => r.id)).toEqual(['run_due_2']);
    // A recorded run is never leased again.
    await objects.deferRun('run_due_2', new Date(Date.now() - 1));
    expect(await objects.claimUsage('run_due_2')).toBe(true);
    expect(await objects.leaseUnrecordedRuns(10, 60_000)).toEqual([]);
  });
});
