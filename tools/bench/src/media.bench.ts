/**
 * `npm run bench:media`: media tasks through a freshly launched stack whose media app answers the API only
 * (MEDIA_ROLE=api), with worker processes this bench starts, printed side by side:
 * 1. Task-create latency through the gateway against the sandbox's own submit of the same task, p50/p99 at
 *    concurrency 1 and 32; the difference is what the gateway adds (hold, submit, row, queue).
 * 2. TASKS tasks in flight at once, held by 1 and then 2 worker processes: each worker's CPU and RSS and
 *    Redis's memory while they are all in flight, and the completion lag (upstream ready → gateway status
 *    terminal) p50/p99. Upstream ready = the task's submit + its generation time; the submit is taken as
 *    the row's creation, which follows it by the few ms of the insert, so the lag reads that much short.
 * 3. Polls (media-polls.phase.ts): Kling-style tasks of 20–40 s, one worker, polled on the learned schedule
 *    and then with vendor callbacks: upstream reads per task and completion lag, cold start apart.
 * BENCH_MEDIA_PHASES (create,inflight,polls) picks the phases.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import pg from 'pg';
import { Agent, request } from 'undici';
import { AdminClient, loadConfigFile, launchStack, type RunningStack, REPO_ROOT } from '@gateway/cli';
import { runPollPhase, type PollPhaseResult } from './media-polls.phase';

const TASKS = Number(process.env.BENCH_MEDIA_TASKS ?? 5000);
const CREATES = Number(process.env.BENCH_MEDIA_CREATES ?? 300);
const POLL_MS = Number(process.env.BENCH_MEDIA_POLL_MS ?? 2000);
const TASK_MS = Number(process.env.BENCH_MEDIA_TASK_MS ?? 30_000);
const PHASES = new Set((process.env.BENCH_MEDIA_PHASES ?? 'create,inflight,polls').split(','));
/** The poll phase's upstream times: from this, plus up to BENCH_MEDIA_SPREAD_MS more. */
const SPREAD_FROM_MS = Number(process.env.BENCH_MEDIA_SPREAD_FROM_MS ?? 20_000);
const SPREAD_MS = Number(process.env.BENCH_MEDIA_SPREAD_MS ?? 20_000);
const MiB = 1024 * 1024;
/** What docker-compose.yml and the Kubernetes manifests give a media worker. */
const MEDIA_WORKER_NODE_OPTIONS = '--max-old-space-size=192';
const agent = new Agent({ connections: 64, keepAliveTimeout: 60_000 });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** `n` calls by `concurrency` closed-loop clients; the milliseconds of each. */
async function timed(n: number, concurrency: number, call: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const client = async () => {
    while (next < n) {
      const i = next++;
      const started = performance.now();
      await call(i);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return times;
}

/** POSTs a JSON body; the answer's JSON. */
async function post(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const response = await request(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    dispatcher: agent,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`POST ${url} answered ${response.statusCode}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

async function get(url: string, headers: Record<string, string>): Promise<void> {
  const response = await request(url, { headers, dispatcher: agent });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`GET ${url} answered ${response.statusCode}: ${text.slice(0, 200)}`);
}

const taskIdOf = (answer: unknown) => (answer as { output: { task_id: string } }).output.task_id;

async function procStats(pid: number): Promise<{ cpuTicks: number; rss: number }> {
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ') ?? [];
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return { cpuTicks: Number(stat[11] ?? 0) + Number(stat[12] ?? 0), rss: Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024 };
}

async function redisUsed(redis: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1] ?? 0);
}

const row = (cells: string[], widths: number[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('');

async function main(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const logFile = path.join(os.tmpdir(), `gateway-bench-media-${stamp}.log`);
  const log = createWriteStream(logFile);
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-bench-media-'));
  const { createTestDatabase } = await import('@gateway/db');
  const db = await createTestDatabase(undefined, 'bench');
  const sql = new pg.Client({ connectionString: db.url });
  const workers: ChildProcess[] = [];
  let stack: RunningStack | undefined;
  let redis: Redis | undefined;
  try {
    process.stdout.write(`launching the stack (logs: ${logFile})\n`);
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: `benchmedia${stamp}.`,
      databaseUrl: db.url,
      storageDir,
      migrate: false,
      logLevel: 'warn',
      env: { NO_COLOR: '1', MEDIA_ROLE: 'api', MEDIA_TASK_DEADLINE_SECONDS: '3600' },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    await sql.connect();
    redis = new Redis(stack.redisUrl);
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    const model = (id: string, upstreamModel: string) => ({
      id,
      displayName: id,
      capability: 'video' as const,
      provider: 'sandbox-dashscope',
      upstreamModel,
      prices: { perSecond: '0.000001' },
    });
    const kling = (id: string, callbacks: boolean) => ({
      ...model(id, `sandbox-kling@task=${SPREAD_FROM_MS},spread=${SPREAD_MS}`),
      provider: 'sandbox-kling',
      callbacks,
    });
    await admin.apply({
      models: [
        model('bench-create', 'wan-video@task=3600000'),
        model('bench-video', `wan-video@task=${TASK_MS},steps=4`),
        kling('bench-kling-std', false),
        kling('bench-klingcb-std', true),
      ],
    });
    const slug = `bench-${stamp}`;
    await admin.createTenant({ slug, billing: 'payg' });
    await admin.topup({ tenant: slug, amount: '100000.00' });
    const { key } = await admin.createKey({ tenant: slug, name: 'bench' });
    const gatewayCreate = (modelId: string) => (i: number) =>
      post(
        `${stack!.baseUrl}/dsc/v1/services/aigc/video-generation/video-synthesis`,
        { authorization: `Bearer ${key}` },
        { model: modelId, input: { prompt: `bench ${i}` }, parameters: { duration: 5 } },
      );
    const sandboxSubmit = (i: number) =>
      post(
        `${stack!.sandboxUrl}/dashscope/api/v1/services/aigc/video-generation/video-synthesis`,
        { authorization: 'Bearer sk-dashscope-sandbox-upstream', 'x-dashscope-async': 'enable' },
        { model: 'wan-video@task=3600000', input: { prompt: `bench ${i}` }, parameters: { duration: 5 } },
      );

    const create: Record<number, { base: number[]; gateway: number[] }> = {};
    const read: Record<number, { base: number[]; gateway: number[] }> = {};
    if (PHASES.has('create')) {
      process.stdout.write(`create latency: ${CREATES} creates at concurrency 1 and 32, sandbox submit then gateway\n`);
      await timed(50, 8, gatewayCreate('bench-create'));
      await timed(50, 8, sandboxSubmit);
      for (const c of [1, 32]) create[c] = { base: await timed(CREATES, c, sandboxSubmit), gateway: await timed(CREATES, c, gatewayCreate('bench-create')) };
      // The floor of any trip to the media service: one task read through the gateway against the sandbox's own.
      const gatewayTask = taskIdOf(await gatewayCreate('bench-create')(-1));
      const sandboxTask = taskIdOf(await sandboxSubmit(-1));
      const gatewayRead = () => get(`${stack!.baseUrl}/dsc/v1/tasks/${gatewayTask}`, { authorization: `Bearer ${key}` });
      const sandboxRead = () => get(`${stack!.sandboxUrl}/dashscope/api/v1/tasks/${sandboxTask}`, { authorization: 'Bearer sk-dashscope-sandbox-upstream' });
      await timed(50, 8, gatewayRead);
      await timed(50, 8, sandboxRead);
      for (const c of [1, 32]) read[c] = { base: await timed(CREATES, c, sandboxRead), gateway: await timed(CREATES, c, gatewayRead) };
    }
    // Those tasks would run for an hour: ended here, so no worker polls them.
    await sql.query("UPDATE media_tasks SET state = 'cancelled', finished_at = now() WHERE model = 'bench-create'");

    const startWorker = (name: string): ChildProcess => {
      const worker = spawn(process.execPath, [path.join(REPO_ROOT, 'apps', 'media', 'dist', 'main.js')], {
        // The worker's deployment setting (docker-compose, Kubernetes): a heap cap, so its RSS follows its live set.
        env: {
          ...stack!.env,
          MEDIA_ROLE: 'worker',
          MEDIA_POLL_INTERVAL_MS: String(POLL_MS),
          MEDIA_WORKER_CONCURRENCY: '128',
          LOG_LEVEL: 'warn',
          NODE_OPTIONS: process.env.BENCH_MEDIA_WORKER_NODE_OPTIONS ?? MEDIA_WORKER_NODE_OPTIONS,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker.stdout!.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk}`));
      worker.stderr!.on('data', (chunk: Buffer) => log.write(`[${name}] ${chunk}`));
      workers.push(worker);
      return worker;
    };
    const inFlight: Record<number, { cpu: number[]; rss: number[]; redis: number; lag50: number; lag99: number; seconds: number }> = {};
    for (const count of PHASES.has('inflight') ? [1, 2] : []) {
      process.stdout.write(`in flight: ${TASKS} tasks of ${TASK_MS / 1000} s, polled every ${POLL_MS / 1000} s by ${count} worker process(es)\n`);
      const started = Array.from({ length: count }, (_, n) => startWorker(`worker-${count}-${n}`));
      await sleep(3000);
      const redisBefore = await redisUsed(redis);
      const phaseStart = Date.now();
      await timed(TASKS, 32, gatewayCreate('bench-video'));
      const createdIn = Date.now() - phaseStart;
      const before = await Promise.all(started.map((w) => procStats(w.pid!)));
      const window = Math.max(2000, Math.min(10_000, TASK_MS - createdIn - 2000));
      let redisPeak = 0;
      const peakRss = before.map((s) => s.rss);
      for (let t = 0; t < window; t += 500) {
        await sleep(500);
        redisPeak = Math.max(redisPeak, await redisUsed(redis));
        (await Promise.all(started.map((w) => procStats(w.pid!)))).forEach((s, i) => (peakRss[i] = Math.max(peakRss[i]!, s.rss)));
      }
      const after = await Promise.all(started.map((w) => procStats(w.pid!)));
      const cpu = after.map((s, i) => ((s.cpuTicks - before[i]!.cpuTicks) / 100 / (window / 1000)) * 100);
      for (;;) {
        const { rows } = await sql.query<{ n: string }>(
          "SELECT count(*) AS n FROM media_tasks WHERE model = 'bench-video' AND state NOT IN ('succeeded', 'failed', 'cancelled')",
        );
        if (Number(rows[0]!.n) === 0) break;
        if (Date.now() - phaseStart > TASK_MS + createdIn + 600_000) throw new Error(`${rows[0]!.n} tasks still live`);
        await sleep(500);
      }
      const { rows } = await sql.query<{ lag: string; state: string }>(
        `SELECT extract(epoch FROM finished_at - created_at) * 1000 - $1 AS lag, state FROM media_tasks WHERE model = 'bench-video'`,
        [TASK_MS],
      );
      const lags = rows.filter((r) => r.state === 'succeeded').map((r) => Number(r.lag));
      if (lags.length !== TASKS) process.stdout.write(`  ${TASKS - lags.length} tasks did not succeed\n`);
      inFlight[count] = {
        cpu,
        rss: peakRss,
        redis: redisPeak - redisBefore,
        lag50: percentile(lags, 50),
        lag99: percentile(lags, 99),
        seconds: (Date.now() - phaseStart) / 1000,
      };
      for (const worker of started) worker.kill('SIGTERM');
      await Promise.all(started.map((w) => new Promise((resolve) => (w.exitCode !== null ? resolve(null) : w.once('exit', resolve)))));
      await sql.query("DELETE FROM media_tasks WHERE model = 'bench-video'");
    }

    const polls: Record<string, PollPhaseResult[]> = {};
    for (const [mode, modelName] of PHASES.has('polls') ? [['polled', 'bench-kling'] as const, ['callbacks', 'bench-klingcb'] as const] : []) {
      const range = `${SPREAD_FROM_MS / 1000}–${(SPREAD_FROM_MS + SPREAD_MS) / 1000} s`;
      process.stdout.write(`polls: ${TASKS} Kling-style tasks of ${range}, ${mode}, one worker polling every ${POLL_MS / 1000} s at most\n`);
      const worker = startWorker(`worker-polls-${mode}`);
      await sleep(3000);
      const phase = { sql, gatewayUrl: stack.baseUrl, sandboxUrl: stack.sandboxUrl, key, modelName, tasks: TASKS, concurrency: 32 };
      const workerCpuSeconds = async () => (await procStats(worker.pid!)).cpuTicks / 100;
      polls[mode] = await runPollPhase({ ...phase, post, timed, percentile, workerCpuSeconds });
      worker.kill('SIGTERM');
      await new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : worker.once('exit', resolve)));
    }

    const w = [40, 16, 16, 16, 24];
    const fmt = (v: number) => `${v.toFixed(2)} ms`;
    const out: string[] = [];
    if (PHASES.has('create')) out.push('', row(['task create (dsc video)', 'sandbox submit', 'gateway', 'added', 'target'], w));
    for (const c of PHASES.has('create') ? [1, 32] : []) {
      const { base, gateway } = create[c]!;
      for (const p of [50, 99]) {
        const added = percentile(gateway, p) - percentile(base, p);
        out.push(row([`  c=${c} p${p}`, fmt(percentile(base, p)), fmt(percentile(gateway, p)), fmt(added), p === 50 ? '<= 2 ms added' : ''], w));
      }
    }
    if (PHASES.has('create')) out.push(row(['task read (dsc GET, the floor of a trip)', 'sandbox read', 'gateway', 'added', ''], w));
    for (const c of PHASES.has('create') ? [1, 32] : []) {
      const { base, gateway } = read[c]!;
      for (const p of [50, 99])
        out.push(row([`  c=${c} p${p}`, fmt(percentile(base, p)), fmt(percentile(gateway, p)), fmt(percentile(gateway, p) - percentile(base, p)), ''], w));
    }
    if (PHASES.has('inflight')) {
      out.push('', row([`${TASKS} tasks in flight`, '1 worker', '2 workers', '', 'target'], w));
      const both = (f: (r: (typeof inFlight)[number]) => string) => [f(inFlight[1]!), f(inFlight[2]!)];
      out.push(row(['  worker CPU (each)', ...both((r) => r.cpu.map((c) => `${c.toFixed(0)}%`).join(' / ')), '', ''], w));
      out.push(row(['  worker peak RSS (each)', ...both((r) => r.rss.map((b) => `${(b / MiB).toFixed(0)} MB`).join(' / ')), '', '< 300 MB'], w));
      out.push(row(['  Redis memory while in flight', ...both((r) => `+${(r.redis / MiB).toFixed(1)} MB`), '', ''], w));
      out.push(row(['  completion lag p50', ...both((r) => fmt(r.lag50)), '', ''], w));
      out.push(row(['  completion lag p99', ...both((r) => fmt(r.lag99)), '', `<= ${POLL_MS + 1000} ms (1 poll + 1 s)`], w));
      out.push(row(['  wall time of the phase', ...both((r) => `${r.seconds.toFixed(1)} s`), '', ''], w));
    }
    for (const [mode, results] of Object.entries(polls)) {
      out.push('', row([`polls, ${mode}`, 'tasks', 'reads/task', 'lag p50', 'lag p99', 'worker CPU'], [...w, 12]));
      for (const r of results) {
        const cpu = r.workerCpu === undefined ? '' : `${r.workerCpu.toFixed(0)}%`;
        out.push(row([`  ${r.label}`, String(r.tasks), r.pollsPerTask.toFixed(2), fmt(r.lag50), fmt(r.lag99), cpu], [...w, 12]));
      }
    }
    process.stdout.write(out.join('\n') + '\n\n');
  } finally {
    for (const worker of workers) worker.kill('SIGKILL');
    redis?.disconnect();
    await sql.end().catch(() => undefined);
    await stack?.stop();
    await db.drop().catch(() => undefined);
    await rm(storageDir, { recursive: true, force: true });
    log.end();
    await agent.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:media failed: ${(error as Error).message}\n`);
  process.exit(1);
});
