/**
 * kill -9 of the files worker in the middle of a batch, then another worker: the batch completes with no
 * line lost and none recorded twice; a native batch's polls resume on the other worker, its upstream batch
 * created once. Runs its own stack (own database and NATS prefix) whose files app only answers the API
 * (FILES_ROLE=api), so the batch runs on worker processes this spec starts and kills.
 */
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { AdminClient, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { chatFile, finished, jsonlOf, waitForBatch } from './support/batch-fixtures';
import { eventually, withSql } from './support/billing-fixtures';
import { openaiClient } from './support/gateway';

const LINES = 1200;
const CONCURRENCY = 8;

describe('batches across a files worker crash', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  const workers: ChildProcess[] = [];
  const logFile = path.join(os.tmpdir(), `gateway-files-crash-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const prefix = `fcrash${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  const startWorker = (name: string): ChildProcess => {
    const worker = spawn(process.execPath, [path.join(REPO_ROOT, 'apps', 'files', 'dist', 'main.js')], {
      env: {
        ...stack.env,
        FILES_ROLE: 'worker',
        BATCH_LOCK_MS: '2000',
        BATCH_CONCURRENCY: String(CONCURRENCY),
        NATIVE_BATCH_POLL_MS: '250',
        METRICS_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk}`));
    worker.stderr!.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk}`));
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'fcrash');
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: prefix,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-fcrash-objects-')),
      migrate: false,
      env: { NO_COLOR: '1', FILES_ROLE: 'api' },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await stack?.stop();
    await db?.drop();
    log.end();
  });

  it('resumes on another worker: every line once in the output, one usage record per line', async () => {
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.createTenant({ slug: 'fcrash' });
    await admin.topup({ tenant: 'fcrash', amount: '100.00' });
    const client = openaiClient((await admin.createKey({ tenant: 'fcrash' })).key, stack.baseUrl);

    const first = startWorker('worker-1');
    const input = await client.files.create({ file: chatFile(LINES, ['sandbox-gpt-slow'], 'crash'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const midway = await waitForBatch(client, batch.id, (b) => (b.request_counts?.completed ?? 0) >= LINES / 4, 60_000);
    expect(midway.status).toBe('in_progress');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = (await client.batches.retrieve(batch.id)).request_counts!.completed;
    expect(atKill).toBeLessThan(LINES);

    startWorker('worker-2');
    const done = await waitForBatch(client, batch.id, finished, 90_000);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: LINES, completed: LINES, failed: 0 });
    const output = await jsonlOf(client, done.output_file_id!);
    expect(output).toHaveLength(LINES);
    expect(new Set(output.map((line) => line.custom_id)).size).toBe(LINES);

    const usageRows = () =>
      withSql(async (sql) => Number((await sql.query('SELECT count(*) AS n FROM usage_records WHERE client_request_id = $1', [batch.id])).rows[0].n), db.url);
    await eventually(`usage rows (logs: ${logFile})`, usageRows, (n) => n === LINES, 45_000);
    // Lines the killed worker had in flight, or finished but not yet recorded, ran again under the same request id:
    // the upstream saw them twice, usage and the ledger once. No recorded line ran again.
    const stats = (await (await request(`${stack.sandboxUrl}/_sandbox/stats`)).body.json()) as { total: number };
    expect(stats.total).toBeGreaterThanOrEqual(LINES);
    expect(stats.total - LINES).toBeLessThanOrEqual(2 * CONCURRENCY);
  }, 240_000);

  it('a native batch resumes its polls on another worker: the upstream batch created once, every line once, one usage record per line', async () => {
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.createTenant({ slug: 'fcrash-native' });
    await admin.topup({ tenant: 'fcrash-native', amount: '100.00' });
    const client = openaiClient((await admin.createKey({ tenant: 'fcrash-native' })).key, stack.baseUrl);
    const sandboxStats = async () =>
      (await (await request(`${stack.sandboxUrl}/_sandbox/stats`)).body.json()) as { routes: Record<string, Record<string, number>> };
    const before = await sandboxStats();
    const created = (stats: typeof before) => stats.routes['POST /openai/v1/batches']?.ok ?? 0;
    const linesRun = (stats: typeof before) => stats.routes['BATCH LINE /v1/chat/completions']?.ok ?? 0;

    // Only the worker this test kills runs batches until it dies.
    for (const worker of workers) worker.kill('SIGKILL');
    const first = startWorker('worker-3');
    const NATIVE_LINES = 2000;
    const input = await client.files.create({ file: chatFile(NATIVE_LINES, ['sandbox-gpt-batch'], 'ncrash'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    // Forwarded and polled: the upstream's progress shows in the counts.
    await waitForBatch(client, batch.id, (b) => b.status === 'in_progress' && (b.request_counts?.completed ?? 0) > 0, 60_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    startWorker('worker-4');
    const done = await waitForBatch(client, batch.id, finished, 90_000);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: NATIVE_LINES, completed: NATIVE_LINES, failed: 0 });
    const output = await jsonlOf(client, done.output_file_id!);
    expect(output).toHaveLength(NATIVE_LINES);
    expect(new Set(output.map((line) => line.custom_id)).size).toBe(NATIVE_LINES);
    const after = await sandboxStats();
    expect(created(after) - created(before)).toBe(1);
    expect(linesRun(after) - linesRun(before)).toBe(NATIVE_LINES);

    const usageRows = () =>
      withSql(async (sql) => Number((await sql.query('SELECT count(*) AS n FROM usage_records WHERE client_request_id = $1', [batch.id])).rows[0].n), db.url);
    await eventually(`usage rows (logs: ${logFile})`, usageRows, (n) => n === NATIVE_LINES, 45_000);
  }, 240_000);
});
