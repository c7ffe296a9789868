/**
 * kill -9 of a media worker while its tasks are running, then another worker: every task completes, and
 * the ledger shows exactly one charge per task. Runs its own stack (own database and NATS prefix) whose
 * media app only answers the API (MEDIA_ROLE=api), so polls run on worker processes this spec starts and kills.
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
import { eventually, withSql } from './support/billing-fixtures';
import { bearer, http } from './support/gateway';

const TASKS = 24;

describe('media tasks across a worker crash', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  const workers: ChildProcess[] = [];
  const logFile = path.join(os.tmpdir(), `gateway-media-crash-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const prefix = `mcrash${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  const startWorker = (name: string): ChildProcess => {
    const worker = spawn(process.execPath, [path.join(REPO_ROOT, 'apps', 'media', 'dist', 'main.js')], {
      env: { ...stack.env, MEDIA_ROLE: 'worker', MEDIA_JOB_LOCK_MS: '2000', MEDIA_POLL_INTERVAL_MS: '200', METRICS_PORT: '0' },
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
    db = await createTestDatabase(undefined, 'mcrash');
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: prefix,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-mcrash-objects-')),
      migrate: false,
      env: { NO_COLOR: '1', MEDIA_ROLE: 'api' },
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

  it('another worker finishes the tasks; each is charged exactly once', async () => {
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
});
