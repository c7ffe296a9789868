import { GatewayError } from '@gateway/contracts';
import { createPrismaClient, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import { LocalObjectStore } from '@gateway/storage';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FilesEnv } from '../config/files-env';
import { FilesRepository } from '../files/files.repository';
import { BatchFinisher } from './batch-finisher';
import type { BatchLineRunner } from './batch-line.runner';
import { newBatchId } from './batch-record';
import { BatchRunnerService } from './batch-runner.service';
import { BatchesRepository } from './batches.repository';
import { NativeBatchService } from './native/native-batch.service';
import type { TenantSlots } from './tenant-slots';

/** Giving up on a batch whose job failed all its attempts, on a real Postgres and storage folder. */
describe('BatchRunnerService.giveUp', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let storageDir: string;
  let store: LocalObjectStore;
  let batches: BatchesRepository;
  let files: FilesRepository;
  let runner: BatchRunnerService;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'giveup');
    prisma = createPrismaClient(db.url, 2);
    storageDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-giveup-'));
    store = new LocalObjectStore(storageDir);
    batches = new BatchesRepository(prisma);
    files = new FilesRepository(prisma);
    const finisher = new BatchFinisher(batches, files, store);
    // Giving up on a line-by-line batch runs no line and calls no upstream: the line runner, the tenant slots
    // and the native batch's catalog, upstream, billing and backoff are never reached.
    const unused = <T>(name: string): T =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error(`${name} is not used when giving up a line-by-line batch`);
          },
        },
      ) as T;
    const native = new NativeBatchService(batches, unused('catalog'), unused('upstream'), unused('billing'), finisher, unused('backoff'), FilesEnv.parse({}));
    runner = new BatchRunnerService(
      batches,
      files,
      store,
      FilesEnv.parse({}),
      unused<BatchLineRunner>('lines'),
      unused<TenantSlots>('slots'),
      native,
      finisher,
    );
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
    await rm(storageDir, { recursive: true, force: true });
  });

  async function runningBatch(lines: number): Promise<string> {
    const id = newBatchId();
    await batches.create({
      id,
      tenantId: randomUUID(),
      keyId: randomUUID(),
      keyKind: 'payg',
      endpoint: '/v1/chat/completions',
      inputFileId: 'file-input',
      completionWindow: '24h',
      metadata: null,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    await batches.addLines(
      id,
      Array.from({ length: lines }, (_, i) => ({ line: i + 1, customId: `c${i + 1}`, body: { model: 'm', messages: [] } })),
    );
    await batches.setTotal(id, lines);
    await batches.move(id, 'validating', 'in_progress');
    return id;
  }

  const result = (line: number, status: number) => ({
    id: `batch_req_${line}`,
    custom_id: `c${line}`,
    response: { status_code: status, request_id: `r${line}`, body: {} },
    error: null,
  });

  const jsonl = async (fileId: string | null) => {
    const row = await files.find((await prisma.storedFile.findUniqueOrThrow({ where: { id: fileId! } })).tenantId, fileId!);
    const chunks: Buffer[] = [];
    for await (const chunk of await store.get(row!.objectKey)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { custom_id: string; response: unknown; error: { code: string } | null });
  };

  it('fails a running batch naming why, keeping the lines that ran in its files and listing the rest as not run', async () => {
    const id = await runningBatch(5);
    await batches.finishLines(id, [
      { line: 1, status: 'completed', result: result(1, 200) },
      { line: 2, status: 'completed', result: result(2, 200) },
      { line: 3, status: 'failed', result: result(3, 500) },
    ]);

    await runner.giveUp(id, new GatewayError('unavailable', 'the chat service did not answer in time'));

    const row = (await batches.byId(id))!;
    expect(row.status).toBe('failed');
    expect(row.failedAt).not.toBeNull();
    expect(row.errors).toEqual({
      object: 'list',
      data: [
        {
          code: 'batch_processing_failed',
          message: 'Processing this batch failed repeatedly: the chat service did not answer in time',
          param: null,
          line: null,
        },
      ],
    });
    expect([row.completed, row.failed]).toEqual([2, 1]);
    expect((await jsonl(row.outputFileId)).map((l) => l.custom_id)).toEqual(['c1', 'c2']);
    const errors = await jsonl(row.errorFileId);
    expect(errors.map((l) => [l.custom_id, l.error?.code ?? null])).toEqual([
      ['c3', null],
      ['c4', 'batch_failed'],
      ['c5', 'batch_failed'],
    ]);
    expect(errors[1]!.response).toBeNull();

    // Giving up again (another worker's failed event) changes nothing.
    await runner.giveUp(id, new GatewayError('unavailable', 'again'));
    expect((await batches.byId(id))!.errors).toEqual(row.errors);
  });

  it('fails a batch still validating, with no lines kept', async () => {
    const id = newBatchId();
    await batches.create({
      id,
      tenantId: randomUUID(),
      keyId: randomUUID(),
      keyKind: 'payg',
      endpoint: '/v1/chat/completions',
      inputFileId: 'file-input',
      completionWindow: '24h',
      metadata: null,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    await batches.addLines(id, [{ line: 1, customId: 'c1', body: {} }]);
    await runner.giveUp(id, 'storage is unreachable');
    const row = (await batches.byId(id))!;
    expect(row.status).toBe('failed');
    expect((row.errors as { data: { code: string }[] }).data[0]!.code).toBe('batch_processing_failed');
    expect(await batches.countPending(id)).toBe(0);
  });

  it('says what failed but never where: internal text (a database error, a path, source lines) stays in the log', async () => {
    const id = await runningBatch(2);
    const internal = new Error(
      'Invalid `prisma.batchLine.createMany()` invocation in\n/srv/gateway/apps/files/dist/batches/batches.repository.js:96:7\n\n  93 | data: lines\nunsupported Unicode escape sequence',
    );
    await runner.giveUp(id, internal);
    const row = (await batches.byId(id))!;
    expect(row.status).toBe('failed');
    const [error] = (row.errors as { data: { code: string; message: string }[] }).data;
    expect(error).toEqual({
      code: 'batch_processing_failed',
      message: `Processing this batch failed repeatedly: an internal error; the gateway's log has its details under batch ${id}.`,
      param: null,
      line: null,
    });
    expect(error!.message).not.toMatch(/prisma|dist|\.js|Unicode/i);
  });
});
