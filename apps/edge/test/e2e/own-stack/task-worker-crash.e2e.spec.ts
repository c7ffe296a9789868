/**
 * kill -9 of a worker mid-work, then another worker. Media: every task completes and the ledger shows
 * exactly one charge per task. Music: a worker killed while its webhook deliveries are in flight; every
 * webhook still reaches its receiver at least once, signed. Files: a batch completes with no line lost or
 * recorded twice; a native batch's polls resume, its upstream batch created once. Runs its own stack (own
 * database and NATS prefix) whose media, music and files apps only answer the API (`*_ROLE=api`), so the
 * work runs on worker processes this spec starts and kills.
 */
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { AdminClient, launchStack, loadConfigFile, REPO_ROOT, type RunningStack } from '@gateway/cli';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { chatFile, finished, jsonlOf, waitForBatch } from '../support/batch-fixtures';
import { eventually, withSql } from '../support/billing-fixtures';
import { bearer, http, openaiClient } from '../support/gateway';
import { WebhookReceiver } from '../support/webhook-receiver';
import { SPEC_STACK_ENV } from '../support/stack-env';

const TASKS = 24;
const MUSIC_TASKS = 10;
const LINES = 1200;
const CONCURRENCY = 8;

describe('tasks and batches across a worker crash', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  const workers: ChildProcess[] = [];
  const logFile = path.join(os.tmpdir(), `gateway-worker-crash-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const prefix = `wcrash${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  const startWorker = (name: string, app: 'media' | 'music' | 'files' = 'media'): ChildProcess => {
    const roles = {
      media: { MEDIA_ROLE: 'worker', MEDIA_JOB_LOCK_MS: '2000', MEDIA_POLL_INTERVAL_MS: '200' },
      music: { MUSIC_ROLE: 'worker', MUSIC_JOB_LOCK_MS: '2000' },
      files: { FILES_ROLE: 'worker', BATCH_LOCK_MS: '2000', BATCH_CONCURRENCY: String(CONCURRENCY), NATIVE_BATCH_POLL_MS: '250' },
    };
    const worker = spawn(process.execPath, [path.join(REPO_ROOT, 'apps', app, 'dist', 'main.js')], {
      env: { ...stack.env, ...roles[app], METRICS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk}`));
    worker.stderr!.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk}`));
    workers.push(worker);
    return worker;
  };
  /** A worker's queues run once its service says it listens (the processors start just before). */
  const ready = (worker: ChildProcess) =>
    new Promise<void>((resolve) => {
      const seen = (chunk: Buffer) => {
        if (!chunk.toString().includes('listening on NATS')) return;
        worker.stdout!.off('data', seen);
        worker.stderr!.off('data', seen);
        resolve();
      };
      worker.stdout!.on('data', seen);
      worker.stderr!.on('data', seen);
    });

  const states = () =>
    withSql(async (sql) => {
      const { rows } = await sql.query<{ state: string; n: string }>('SELECT state, count(*) AS n FROM media_tasks GROUP BY state');
      return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
    }, db.url);

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'wcrash');
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: prefix,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-wcrash-objects-')),
      migrate: false,
      env: {
        ...SPEC_STACK_ENV,
        MEDIA_ROLE: 'api',
        MUSIC_ROLE: 'api',
        FILES_ROLE: 'api',
        MUSIC_POLL_INTERVAL_MS: '300',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_LOCK_MS: '2000',
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_RETRY_BASE_MS: '150',
      },
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

  it('media: another worker finishes the tasks; each is charged exactly once', async () => {
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.createTenant({ slug: 'mcrash' });
    await admin.topup({ tenant: 'mcrash', amount: '100.00' });
    const key = (await admin.createKey({ tenant: 'mcrash' })).key;
    await admin.apply({
      models: [
        {
          id: 'crash-video',
          displayName: 'Crash video',
          capability: 'video',
          provider: 'sandbox-dashscope',
          upstreamModel: 'wan-video@task=12000,steps=12',
          prices: { perSecond: '0.10' },
        },
      ],
    });

    const first = startWorker('worker-1');
    await ready(first);
    const created = await Promise.all(
      Array.from({ length: TASKS }, (_, i) =>
        http('POST', `${stack.baseUrl}/dsc/v1/services/aigc/video-generation/video-synthesis`, {
          headers: bearer(key),
          json: { model: 'crash-video', input: { prompt: `crash ${i}` }, parameters: { duration: 5 } },
        }),
      ),
    );
    expect(created.map((c) => c.status)).toEqual(Array(TASKS).fill(200));
    const ids = created.map((c) => (c.body as { output: { task_id: string } }).output.task_id);
    await eventually(`tasks running on worker-1 (logs: ${logFile})`, states, (s) => (s.running ?? 0) >= TASKS / 2 && !s.succeeded, 30_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    await sleep(1500);
    const atKill = await states();
    expect(atKill.succeeded ?? 0).toBeLessThan(TASKS);

    startWorker('worker-2');
    await eventually(`every task succeeded (logs: ${logFile})`, states, (s) => s.succeeded === TASKS, 60_000);
    const ledger = await withSql(
      async (sql) =>
        (
          await sql.query<{ request_id: string; kind: string; amount_micros: string }>(
            'SELECT request_id, kind, amount_micros FROM ledger_entries WHERE request_id = ANY($1)',
            [ids],
          )
        ).rows,
      db.url,
    );
    await eventually(
      'one settle per task in the ledger',
      async () =>
        withSql(
          async (sql) => Number((await sql.query("SELECT count(*) AS n FROM ledger_entries WHERE kind = 'settle' AND request_id = ANY($1)", [ids])).rows[0].n),
          db.url,
        ),
      (n) => n === TASKS,
      20_000,
    );
    for (const id of ids) {
      const rows = ledger.filter((row) => row.request_id === id);
      expect(rows.filter((row) => row.kind === 'reserve')).toHaveLength(1);
      expect(rows.filter((row) => row.kind === 'release')).toHaveLength(0);
    }
    const charged = await withSql(
      async (sql) => BigInt((await sql.query('SELECT -sum(amount_micros) AS c FROM ledger_entries WHERE request_id = ANY($1)', [ids])).rows[0].c),
      db.url,
    );
    expect(charged).toBe(BigInt(TASKS) * 500_000n);
  }, 180_000);

  it('music: a worker killed with deliveries in flight; another delivers every webhook at least once, signed', async () => {
    const receiver = await new WebhookReceiver(1000).start();
    try {
      const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
      await admin.createTenant({ slug: 'wcrash-music' });
      await admin.topup({ tenant: 'wcrash-music', amount: '100.00' });
      const key = (await admin.createKey({ tenant: 'wcrash-music' })).key;
      const verifier = new Webhook((await admin.rotateWebhookSecret('wcrash-music')).secret);
      const first = startWorker('music-worker-1', 'music');
      await ready(first);
      const ids = await Promise.all(
        Array.from({ length: MUSIC_TASKS }, async (_, i) => {
          const created = await http('POST', `${stack.baseUrl}/music/generate`, {
            headers: bearer(key),
            json: { customMode: false, instrumental: false, model: 'sandbox-music', prompt: `crash ${i}`, callBackUrl: receiver.url(`crash-${i}`) },
          });
          expect(created.status).toBe(200);
          return { i, taskId: (created.body as { data: { taskId: string } }).data.taskId };
        }),
      );
      // Each delivery is held open a second by the receiver: the ones that have arrived are in flight.
      await eventually(
        `deliveries in flight (logs: ${logFile})`,
        async () => receiver.hits.filter((hit) => Date.now() - hit.at < 400).length,
        (n) => n >= 2,
        30_000,
      );
      first.kill('SIGKILL');
      const killedAt = Date.now();
      await new Promise((resolve) => first.once('exit', resolve));
      const inFlight = new Set(receiver.hits.filter((hit) => hit.at > killedAt - 800).map((hit) => hit.headers['webhook-id']));
      expect(inFlight.size).toBeGreaterThan(0);
      startWorker('music-worker-2', 'music');

      const delivered = (i: number) => new Set(receiver.at(`crash-${i}`).map((hit) => (verifier.verify(hit.body, hit.headers), hit.headers['webhook-id'])));
      await eventually(
        `three signed webhooks for every task (logs: ${logFile})`,
        async () => ids.map(({ i }) => delivered(i).size),
        (counts) => counts.every((n) => n === 3),
        60_000,
      );
      for (const { i, taskId } of ids) {
        const kinds = receiver
          .at(`crash-${i}`)
          .map((hit) => (verifier.verify(hit.body, hit.headers) as { data: { callbackType: string; taskId: string } }).data);
        expect(new Set(kinds.map((k) => k.callbackType))).toEqual(new Set(['text', 'first', 'complete']));
        expect(new Set(kinds.map((k) => k.taskId))).toEqual(new Set([taskId]));
      }
      // What was in flight when the worker died arrived again, under the same webhook-id.
      const arrivals = (id: string | undefined) => receiver.hits.filter((hit) => hit.headers['webhook-id'] === id).length;
      expect([...inFlight].map(arrivals).every((n) => n >= 2)).toBe(true);
    } finally {
      await receiver.stop();
    }
  }, 120_000);
  it('files: a batch resumes on another worker: every line once in the output, one usage record per line', async () => {
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.createTenant({ slug: 'fcrash' });
    await admin.topup({ tenant: 'fcrash', amount: '100.00' });
    const client = openaiClient((await admin.createKey({ tenant: 'fcrash' })).key, stack.baseUrl);

    const upstreamCalls = async () => ((await (await request(`${stack.sandboxUrl}/_sandbox/stats`)).body.json()) as { total: number }).total;
    const callsBefore = await upstreamCalls();
    const first = startWorker('files-worker-1', 'files');
    const input = await client.files.create({ file: chatFile(LINES, ['sandbox-gpt-slow'], 'crash'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const midway = await waitForBatch(client, batch.id, (b) => (b.request_counts?.completed ?? 0) >= LINES / 4, 60_000);
    expect(midway.status).toBe('in_progress');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = (await client.batches.retrieve(batch.id)).request_counts!.completed;
    expect(atKill).toBeLessThan(LINES);

    startWorker('files-worker-2', 'files');
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
    const calls = (await upstreamCalls()) - callsBefore;
    expect(calls).toBeGreaterThanOrEqual(LINES);
    expect(calls - LINES).toBeLessThanOrEqual(2 * CONCURRENCY);
  }, 240_000);

  it('files: a native batch resumes its polls on another worker: the upstream batch created once, every line once, one usage record per line', async () => {
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.createTenant({ slug: 'fcrash-native' });
    await admin.topup({ tenant: 'fcrash-native', amount: '100.00' });
    const client = openaiClient((await admin.createKey({ tenant: 'fcrash-native' })).key, stack.baseUrl);
    const sandboxStats = async () =>
      (await (await request(`${stack.sandboxUrl}/_sandbox/stats`)).body.json()) as { routes: Record<string, Record<string, number>> };
    const before = await sandboxStats();
    const created = (stats: typeof before) => stats.routes['POST /openai/v1/batches']?.ok ?? 0;
    const linesRun = (stats: typeof before) => stats.routes['BATCH LINE /v1/chat/completions']?.ok ?? 0;

    // Only the worker this test kills runs batches until it dies (the other specs' workers have finished).
    for (const worker of workers) worker.kill('SIGKILL');
    const first = startWorker('files-worker-3', 'files');
    const NATIVE_LINES = 2000;
    const input = await client.files.create({ file: chatFile(NATIVE_LINES, ['sandbox-gpt-batch'], 'ncrash'), purpose: 'batch' });
    const batch = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    // Forwarded and polled: the upstream's progress shows in the counts.
    await waitForBatch(client, batch.id, (b) => b.status === 'in_progress' && (b.request_counts?.completed ?? 0) > 0, 60_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    startWorker('files-worker-4', 'files');
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
