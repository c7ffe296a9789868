/**
 * kill -9 of a task worker mid-work, then another worker. Media: every task completes and the ledger shows
 * exactly one charge per task. Music: a worker killed while its webhook deliveries are in flight; every
 * webhook still reaches its receiver at least once, signed. Runs its own stack (own database and NATS
 * prefix) whose media and music apps only answer the API (MEDIA_ROLE=api, MUSIC_ROLE=api), so polls and
 * deliveries run on worker processes this spec starts and kills.
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
import { eventually, withSql } from './support/billing-fixtures';
import { bearer, http } from './support/gateway';
import { WebhookReceiver } from './support/webhook-receiver';

const TASKS = 24;
const MUSIC_TASKS = 10;

describe('tasks across a worker crash', () => {
  let db: TestDatabase;
  let stack: RunningStack;
  const workers: ChildProcess[] = [];
  const logFile = path.join(os.tmpdir(), `gateway-media-crash-${Date.now().toString(36)}.log`);
  const log = createWriteStream(logFile);
  const prefix = `mcrash${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;

  const startWorker = (name: string, app: 'media' | 'music' = 'media'): ChildProcess => {
    const roles = { media: { MEDIA_ROLE: 'worker', MEDIA_JOB_LOCK_MS: '2000', MEDIA_POLL_INTERVAL_MS: '200' }, music: { MUSIC_ROLE: 'worker' } };
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
    db = await createTestDatabase(undefined, 'mcrash');
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: prefix,
      databaseUrl: db.url,
      storageDir: await mkdtemp(path.join(os.tmpdir(), 'gateway-mcrash-objects-')),
      migrate: false,
      env: {
        NO_COLOR: '1',
        MEDIA_ROLE: 'api',
        MUSIC_ROLE: 'api',
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
      await admin.createTenant({ slug: 'wcrash' });
      await admin.topup({ tenant: 'wcrash', amount: '100.00' });
      const key = (await admin.createKey({ tenant: 'wcrash' })).key;
      const verifier = new Webhook((await admin.rotateWebhookSecret('wcrash')).secret);
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
});
