/**
 * `npm run bench:webhooks`: tenant webhook deliveries through a freshly launched stack. The bench is the
 * music upstream itself (a minimal Suno-style server that accepts lyrics tasks and calls back only when
 * told), so it measures exactly "upstream callback in → tenant receiver hit": deliveries per second and
 * p50/p99 latency, beside the receiver's own baseline (the same receiver hit directly, same concurrency),
 * then again with a share of the tasks' receivers timing out, to show they do not slow the others. The
 * burst rows (callbacks closed-loop, 64 at a time) measure throughput; the paced rows (callbacks open-loop
 * at BENCH_WEBHOOKS_RATE a second) measure latency, and the CPU each process spends per delivery.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { AdminClient, loadConfigFile, launchStack, type RunningStack, REPO_ROOT } from '@gateway/cli';
import { ms } from './bench-format';
import { pidsNamed, type CpuGroup } from './process-cpu';
import { pacedDeliveries, percentile, type PacedDeliveryResult } from './webhooks-paced.phase';
import { listen, startReceiver, startUpstream, type BenchTask } from './webhooks-parties';

const TASKS = Number(process.env.BENCH_WEBHOOKS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const SLOW_SHARE = 0.2;
const TIMEOUT_MS = 1000;
const RATE = Number(process.env.BENCH_WEBHOOKS_RATE ?? 1000);
const PACED = Math.round(RATE * Number(process.env.BENCH_WEBHOOKS_PACED_SECONDS ?? 3));

interface Measured {
  name: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** The upstream's callbacks alone: answered by the gateway's intake (written to the outbox), before any delivery. */
  intake?: { perSecond: number; p50: number; p99: number };
}

const dispatcher = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 10_000 });

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: unknown }> {
  const response = await request(url, { method: 'POST', dispatcher, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.body.text();
  return { status: response.statusCode, json: text ? JSON.parse(text) : null };
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function baseline(receiverUrl: string): Promise<Measured> {
  const latencies: number[] = [];
  const started = performance.now();
  await inParallel(
    Array.from({ length: TASKS }, (_, i) => i),
    CONCURRENCY,
    async (i) => {
      const at = performance.now();
      await postJson(`${receiverUrl}/baseline`, { code: 200, msg: 'success', data: { callbackType: 'complete', taskId: `b${i}`, data: [] } });
      latencies.push(performance.now() - at);
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return { name: 'receiver hit directly (baseline)', count: TASKS, perSecond: TASKS / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function row(m: Measured): string {
  return `${m.name.padEnd(52)}${String(m.count).padStart(7)}${m.perSecond.toFixed(0).padStart(10)}${ms(m.p50).padStart(11)}${ms(m.p99).padStart(11)}`;
}

function cpuGroupsOf(stack: RunningStack): CpuGroup[] {
  const apps: CpuGroup[] = stack.processes.map((p) => ({ name: p.name, pids: () => (p.pid === undefined ? [] : [p.pid]) }));
  return [...apps, ...['nats-server', 'redis-server', 'postgres'].map((name) => ({ name, pids: () => pidsNamed(name) }))];
}

/** The groups that spent at least 1 µs per delivery, costliest first, and their sum. */
function cpuLine(result: PacedDeliveryResult): string {
  const spent = [...result.cpuPerDelivery].filter(([, micros]) => micros >= 1).sort((a, b) => b[1] - a[1]);
  const total = spent.reduce((sum, [, micros]) => sum + micros, 0);
  const refused = result.refused > 0 ? `; ${result.refused} callbacks refused by the intake` : '';
  const missing = result.missing > 0 ? `; ${result.missing} webhooks NEVER ARRIVED` : '';
  return `  CPU per delivery: ${spent.map(([name, micros]) => `${name} ${micros.toFixed(0)} µs`).join(', ')}; total ${total.toFixed(0)} µs${refused}${missing}`;
}

async function main(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const logFile = path.join(os.tmpdir(), `gateway-bench-webhooks-${stamp}.log`);
  const log = createWriteStream(logFile);
  const { createTestDatabase } = await import('@gateway/db');
  const db = await createTestDatabase(undefined, 'bench');
  const adminToken = randomBytes(12).toString('hex');
  const tasks = new Map<number, BenchTask>();
  const receiver = startReceiver();
  const upstream = startUpstream(tasks);
  // The receivers that time out are other receivers: another origin, with its own share of delivery slots.
  const slowReceiver = startReceiver();
  const receiverUrl = await listen(receiver.server);
  const slowReceiverUrl = await listen(slowReceiver.server);
  const upstreamUrl = await listen(upstream);
  let stack: RunningStack | undefined;
  try {
    process.stdout.write(`launching the stack (logs: ${logFile})\n`);
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: `bench${stamp}.`,
      databaseUrl: db.url,
      adminToken,
      workers: true,
      migrate: false,
      logLevel: 'warn',
      env: {
        NO_COLOR: '1',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        WEBHOOK_MAX_ATTEMPTS: '1',
        MUSIC_POLL_INTERVAL_MS: '600000',
      },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: adminToken });
    const config = (await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env)) as { providers: unknown[]; models: unknown[] };
    await admin.apply({
      ...config,
      providers: [...config.providers, { id: 'bench-music', protocol: 'music', baseUrl: upstreamUrl, apiKey: 'bench' }],
      models: [
        ...config.models,
        { id: 'bench-music', displayName: 'Bench music', capability: 'music', provider: 'bench-music', upstreamModel: 'V4_5', prices: { perTask: '0' } },
      ],
    });
    const slug = `bench-${stamp}`;
    await admin.createTenant({ slug, billing: 'payg' });
    await admin.topup({ tenant: slug, amount: '100.00' });
    const key = await admin.createKey({ tenant: slug, name: 'bench' });
    const auth = { authorization: `Bearer ${key.key}` };

    /** Creates tasks through the gateway (not measured); a `slow` task's receiver never answers. */
    let created = 0;
    const create = async (count: number, slow: (i: number) => boolean): Promise<BenchTask[]> => {
      const batch: BenchTask[] = Array.from({ length: count }, (_, n) => ({ index: created + n, slow: slow(n) }));
      created += count;
      batch.forEach((task) => tasks.set(task.index, task));
      await inParallel(batch, 16, async (task) => {
        const callBackUrl = task.slow ? `${slowReceiverUrl}/slow/${task.index}` : `${receiverUrl}/ok/${task.index}`;
        const answer = await postJson(`${stack!.baseUrl}/music/generate-lyrics`, { prompt: `bench-${task.index}`, model: 'bench-music', callBackUrl }, auth);
        if (answer.status !== 200) throw new Error(`creating a task answered ${answer.status}: ${JSON.stringify(answer.json)}`);
        task.taskId = (answer.json as { data: { taskId: string } }).data.taskId;
      });
      return batch;
    };

    /** Sends a task's complete callback as the upstream does. */
    const callBack = async (task: BenchTask): Promise<void> => {
      const body = {
        code: 200,
        msg: 'success',
        data: { callbackType: 'complete', task_id: task.upstreamId, data: [{ text: 'la', title: 'Bench', status: 'complete' }] },
      };
      const answer = await postJson(task.intake!, body);
      if (answer.status !== 200) throw new Error(`the callback intake answered ${answer.status}`);
    };

    /** Sends every task's complete callback, CONCURRENCY at a time, then waits for each healthy receiver's hit. */
    const deliver = async (name: string, batch: BenchTask[]): Promise<Measured> => {
      const started = performance.now();
      await inParallel(batch, CONCURRENCY, async (task) => {
        task.sentAt = performance.now();
        await callBack(task);
        task.answeredAt = performance.now();
      });
      const answered = batch.map((task) => task.answeredAt! - task.sentAt!);
      const intake = {
        p50: percentile(answered, 50),
        p99: percentile(answered, 99),
        perSecond: batch.length / ((Math.max(...batch.map((task) => task.answeredAt!)) - started) / 1000),
      };
      const healthy = batch.filter((task) => !task.slow);
      const deadline = Date.now() + 120_000;
      while (healthy.some((task) => !receiver.hits.has(task.taskId!))) {
        if (Date.now() > deadline) throw new Error(`${healthy.filter((task) => !receiver.hits.has(task.taskId!)).length} webhooks never arrived`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const latencies = healthy.map((task) => receiver.hits.get(task.taskId!)! - task.sentAt!);
      const finished = Math.max(...healthy.map((task) => receiver.hits.get(task.taskId!)!));
      return {
        name,
        count: healthy.length,
        perSecond: healthy.length / ((finished - started) / 1000),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        intake,
      };
    };

    /** Until every slow receiver of `batch` has been called and timed out: their deliveries hold slots until then. */
    const drain = async (batch: BenchTask[]): Promise<void> => {
      const deadline = Date.now() + 120_000;
      while (batch.some((task) => task.slow && !slowReceiver.hits.has(task.taskId!)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 250));
    };

    /** The batch's callbacks open-loop at RATE a second, timed from each send to its receiver's hit. */
    const deliverPaced = async (name: string, batch: BenchTask[]): Promise<Measured & { paced: PacedDeliveryResult }> => {
      const groups = cpuGroupsOf(stack!);
      const paced = await pacedDeliveries({ batch, rate: RATE, callBack, hitAt: (id) => receiver.hits.get(id), groups, timeoutMs: 60_000 });
      return { name, count: paced.count, perSecond: paced.perSecond, p50: paced.p50, p99: paced.p99, paced };
    };

    process.stdout.write(`creating ${TASKS} tasks twice, ${PACED} twice (and a few to warm up)\n`);
    const healthyOnly = await create(TASKS, () => false);
    // The same healthy tasks again, with every sixth task's receiver timing out in between (a fifth more tasks).
    const mixed = await create(Math.round(TASKS * (1 + SLOW_SHARE)), (n) => n % 6 === 0);
    const pacedHealthy = await create(PACED, () => false);
    // At the same offered rate, every sixth callback's receiver timing out.
    const pacedMixed = await create(PACED, (n) => n % 6 === 0);
    // A few deliveries first, so the measured ones do not pay for connections and statements being prepared.
    await deliver('warm-up', await create(Math.min(100, Math.ceil(TASKS / 10)), () => false));
    const direct = await baseline(receiverUrl);
    process.stdout.write('burst rows\n');
    const gateway = await deliver('callback in -> receiver hit (gateway)', healthyOnly);
    const withSlow = await deliver(`same, ${mixed.filter((t) => t.slow).length} other receivers timing out (${TIMEOUT_MS} ms)`, mixed);
    await drain(mixed);
    process.stdout.write(`paced rows at ${RATE} callbacks/s\n`);
    const paced = await deliverPaced(`paced: ${RATE} callbacks/s, callback sent -> hit`, pacedHealthy);
    process.stdout.write('paced rows with slow receivers\n');
    const pacedSlow = await deliverPaced(`same, a sixth (${pacedMixed.filter((t) => t.slow).length}) timing out`, pacedMixed);
    process.stdout.write('done\n');
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    /** A paced row meets a latency target only when every callback was accepted and every webhook arrived. */
    const complete = (row: { count: number; paced: PacedDeliveryResult }) => row.count > 0 && row.paced.refused + row.paced.missing === 0;
    process.stdout.write(
      [
        '',
        `Tenant webhooks: ${TASKS} tasks, ${CONCURRENCY} concurrent upstream callbacks, ${os.cpus().length} CPUs`,
        `${'measure'.padEnd(52)}${'count'.padStart(7)}${'per s'.padStart(10)}${'p50'.padStart(11)}${'p99'.padStart(11)}`,
        row(direct),
        row(gateway),
        row(withSlow),
        row(paced),
        cpuLine(paced.paced),
        row(pacedSlow),
        cpuLine(pacedSlow.paced),
        `upstream callbacks answered (intake only): ${gateway.intake!.perSecond.toFixed(0)} per s, p50 ${ms(gateway.intake!.p50)}, p99 ${ms(gateway.intake!.p99)}`,
        `gateway/baseline: throughput ${(gateway.perSecond / direct.perSecond).toFixed(2)}x, p50 ${(gateway.p50 / direct.p50).toFixed(1)}x, p99 ${(gateway.p99 / direct.p99).toFixed(1)}x`,
        `with slow receivers/without: throughput ${(withSlow.perSecond / gateway.perSecond).toFixed(2)}x, p99 ${(withSlow.p99 / gateway.p99).toFixed(2)}x`,
        `paced intake answered: p50 ${ms(paced.paced.intake.p50)}, p99 ${ms(paced.paced.intake.p99)}; with slow receivers p50 ${ms(pacedSlow.paced.intake.p50)}, p99 ${ms(pacedSlow.paced.intake.p99)}`,
        `targets: >= 1,000 deliveries/s (burst) ${met(gateway.perSecond >= 1000)} (${gateway.perSecond.toFixed(0)}), with slow receivers ${met(withSlow.perSecond >= 1000)} (${withSlow.perSecond.toFixed(0)})`,
        `         p99 <= 50 ms at ${RATE} callbacks/s (paced) ${met(complete(paced) && paced.p99 <= 50)} (${paced.p99.toFixed(1)} ms), with slow receivers ${met(complete(pacedSlow) && pacedSlow.p99 <= 50)} (${pacedSlow.p99.toFixed(1)} ms)`,
        '',
      ].join('\n'),
    );
  } finally {
    await stack?.stop();
    for (const { server } of [receiver, slowReceiver]) {
      server.closeAllConnections();
      server.close();
    }
    upstream.close();
    await dispatcher.close();
    await db.drop().catch(() => undefined);
    log.end();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench:webhooks failed: ${error.message}\n`);
  process.exit(1);
});
