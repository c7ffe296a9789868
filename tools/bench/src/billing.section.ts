/**
 * The billing section of `npm run bench:chat`: two identical stacks side by side, one with
 * BILLING_ENABLED=true and one with false, measured in the same run. Latency at concurrency 1 alternates
 * between them in blocks (drift on a busy machine hits both alike); throughput at 64 connections runs
 * one stack at a time, in the order off, on, on, off.
 */
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Agent, request } from 'undici';
import { AdminClient, loadConfigFile, launchStack, type RunningStack, REPO_ROOT } from '@gateway/cli';
import { signedMs } from './bench-format';
import { closedLoad } from './closed-load';

const SEQUENTIAL = Number(process.env.BENCH_BILLING_SEQUENTIAL ?? 2000);
const RPS_SECONDS = Number(process.env.BENCH_RPS_SECONDS ?? 10);
const CONNECTIONS = 64;
/** Requests to each stack before measuring: enough for the JIT to settle in every process of the path. */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);

interface Side {
  stack: RunningStack;
  db: TestDatabase;
  url: string;
  key: string;
}

const agent = new Agent({ connections: 256, keepAliveTimeout: 60_000 });
const BODY = (model: string) => JSON.stringify({ model, messages: [{ role: 'user', content: 'Benchmark the gateway with a short question.' }] });

async function start(billing: boolean): Promise<Side> {
  const db = await createTestDatabase(undefined, 'benchbill');
  const stamp = randomBytes(3).toString('hex');
  const token = randomBytes(16).toString('hex');
  const stack = await launchStack({
    removeNamespaceOnStop: true,
    natsPrefix: `benchbill${stamp}.`,
    databaseUrl: db.url,
    migrate: false,
    adminToken: token,
    logLevel: 'warn',
    env: { BILLING_ENABLED: String(billing) },
    sink: () => undefined,
  });
  const admin = new AdminClient({ url: stack.adminUrl, token });
  await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
  await admin.createTenant({ slug: 'bench' });
  await admin.topup({ tenant: 'bench', amount: '100000.00' });
  const key = (await admin.createKey({ tenant: 'bench' })).key;
  return { stack, db, url: `${stack.baseUrl}/oaic/v1/chat/completions`, key };
}

async function once(side: Side, model: string): Promise<number> {
  const started = performance.now();
  const response = await request(side.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${side.key}`, 'content-type': 'application/json' },
    body: BODY(model),
    dispatcher: agent,
  });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
  return performance.now() - started;
}

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

async function rps(side: Side, seconds: number): Promise<number> {
  return (await closedLoad({ url: side.url, key: side.key, model: 'sandbox-gpt-slow', connections: CONNECTIONS, seconds })).rps;
}

/**
 * Throughput of both stacks in the order off, on, on, off, half the time each round: a machine whose
 * speed drifts during the run (these do) shifts both sides alike instead of the side measured last.
 */
async function alternatingRps(off: Side, on: Side): Promise<{ off: number; on: number }> {
  const half = RPS_SECONDS / 2;
  const first = await rps(off, half);
  const second = await rps(on, half);
  const third = await rps(on, half);
  const fourth = await rps(off, half);
  return { off: (first + fourth) / 2, on: (second + third) / 2 };
}

/** Runs the comparison and returns its table. */
export async function benchBilling(): Promise<string> {
  const on = await start(true);
  const off = await start(false).catch(async (error: Error) => {
    await on.stack.stop();
    throw error;
  });
  try {
    const lat = { on: [] as number[], off: [] as number[] };
    for (let i = 0; i < WARMUP; i++) await Promise.all([once(on, 'sandbox-gpt'), once(off, 'sandbox-gpt')]);
    for (let done = 0; done < SEQUENTIAL; done += 100) {
      for (let i = 0; i < 100; i++) lat.on.push(await once(on, 'sandbox-gpt'));
      for (let i = 0; i < 100; i++) lat.off.push(await once(off, 'sandbox-gpt'));
    }
    lat.on.sort((a, b) => a - b);
    lat.off.sort((a, b) => a - b);
    const { off: rpsOff, on: rpsOn } = await alternatingRps(off, on);
    const added = p(lat.on, 0.5) - p(lat.off, 0.5);
    const drop = 1 - rpsOn / rpsOff;
    const rows = [
      ['measure', 'billing off', 'billing on', 'difference', 'target', ''],
      ['latency p50, c=1', `${p(lat.off, 0.5).toFixed(2)} ms`, `${p(lat.on, 0.5).toFixed(2)} ms`, signedMs(added), '≤ +0.5 ms', added <= 0.5 ? 'PASS' : 'MISS'],
      ['latency p99, c=1', `${p(lat.off, 0.99).toFixed(2)} ms`, `${p(lat.on, 0.99).toFixed(2)} ms`, signedMs(p(lat.on, 0.99) - p(lat.off, 0.99)), '', ''],
      [
        `RPS, ${CONNECTIONS} conn, 20 ms upstream`,
        rpsOff.toFixed(0),
        rpsOn.toFixed(0),
        `${(drop * 100).toFixed(1)} % drop`,
        '≤ 10 %',
        drop <= 0.1 ? 'PASS' : 'MISS',
      ],
    ];
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
  } finally {
    await Promise.all([on.stack.stop(), off.stack.stop()]);
    await Promise.all([on.db.drop().catch(() => undefined), off.db.drop().catch(() => undefined)]);
    await agent.close();
  }
}
