/**
 * `npm run bench:edge`: GET /oaic/v1/models with a valid key at 50 connections through a freshly launched
 * stack, beside a bare Fastify route under the same load in the same run: at saturation (closed loop) and
 * at an offered 5,000 RPS (open loop, in alternating rounds); prints RPS, p50, p99 and ratios.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { AdminClient, loadConfigFile, launchStack, type RunningStack, REPO_ROOT } from '@gateway/cli';
import { pacedLoad } from './paced-load';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = 3;
/** The offered load at which the p99 target is judged: below saturation, latency is the gateway's, not the queue's. */
const TARGET_RATE = Number(process.env.BENCH_TARGET_RPS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_S = Number(process.env.BENCH_ROUND_S ?? 5);

interface Target {
  name: string;
  base: string;
  headers: Record<string, string>;
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Closed loop at saturation: every connection sends its next request as soon as the last one answered. */
async function saturate(name: string, url: string, headers: Record<string, string>): Promise<Measured> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARMUP_S });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** One round of open-loop load at `rate` requests per second, spread evenly over time and over up to CONNECTIONS connections. */
async function offerOnce(name: string, base: string, headers: Record<string, string>, seconds: number): Promise<Measured> {
  return { name, ...(await pacedLoad({ url: base, path: '/oaic/v1/models', headers, rate: TARGET_RATE, connections: CONNECTIONS, seconds })) };
}

/**
 * Open-loop rounds at the offered rate, edge and bare route taking turns so a noisy spell of the machine
 * hits both alike; the round with the median p99 stands for each side, and every round's p99 is printed.
 */
async function offerRounds(edge: Target, bare: Target): Promise<{ edge: Measured[]; bare: Measured[] }> {
  await offerOnce(edge.name, edge.base, edge.headers, WARMUP_S);
  await offerOnce(bare.name, bare.base, bare.headers, WARMUP_S);
  const rounds = { edge: [] as Measured[], bare: [] as Measured[] };
  for (let i = 0; i < ROUNDS; i++) {
    rounds.edge.push(await offerOnce(edge.name, edge.base, edge.headers, ROUND_S));
    rounds.bare.push(await offerOnce(bare.name, bare.base, bare.headers, ROUND_S));
  }
  return rounds;
}

function medianRound(rounds: Measured[]): Measured {
  return [...rounds].sort((a, b) => a.p99 - b.p99)[Math.floor(rounds.length / 2)]!;
}

function startBareServer(bodyFile: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'bare-server.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BARE_BODY_FILE: bodyFile },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (port) => resolve({ url: `http://127.0.0.1:${port.trim()}`, stop: () => child.kill('SIGTERM') }));
  });
}

/** A latency ratio; autocannon reports whole milliseconds, so a 0 ms baseline has none. */
function times(value: number, baseline: number): string {
  return baseline > 0 ? `${(value / baseline).toFixed(2)}x` : 'n/a (baseline under 1 ms resolution)';
}

function report(title: string, edge: Measured, bare: Measured): string {
  const row = (m: Measured) =>
    `${m.name.padEnd(34)}${m.rps.toFixed(0).padStart(9)}${m.p50.toFixed(2).padStart(9)}${m.p99.toFixed(2).padStart(9)}${String(m.errors).padStart(8)}`;
  return [
    `${title}: GET /oaic/v1/models, ${CONNECTIONS} connections, after ${WARMUP_S} s warm-up, ${os.cpus().length} CPUs`,
    `${'target'.padEnd(34)}${'RPS'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}`,
    row(edge),
    row(bare),
    `edge/bare: RPS ${(edge.rps / bare.rps).toFixed(2)}x, p50 ${times(edge.p50, bare.p50)}, p99 ${times(edge.p99, bare.p99)}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const logFile = path.join(os.tmpdir(), `gateway-bench-edge-${stamp}.log`);
  const log = createWriteStream(logFile);
  const { createTestDatabase } = await import('@gateway/db');
  const db = await createTestDatabase(undefined, 'bench');
  const adminToken = randomBytes(12).toString('hex');
  let stack: RunningStack | undefined;
  let bare: { url: string; stop: () => void } | undefined;
  try {
    process.stdout.write(`launching the stack (logs: ${logFile})\n`);
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: `bench${stamp}.`,
      databaseUrl: db.url,
      adminToken,
      migrate: false,
      logLevel: 'warn',
      env: { NO_COLOR: '1' },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    const admin = new AdminClient({ url: stack.adminUrl, token: adminToken });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    await admin.createTenant({ slug: `bench-${stamp}`, billing: 'payg' });
    const key = await admin.createKey({ tenant: `bench-${stamp}`, name: 'bench' });
    const auth = { authorization: `Bearer ${key.key}` };
    const edgeBody = await (await fetch(`${stack.baseUrl}/oaic/v1/models`, { headers: auth })).text();
    const bodyFile = path.join(os.tmpdir(), `gateway-bench-edge-${stamp}.json`);
    writeFileSync(bodyFile, edgeBody);
    bare = await startBareServer(bodyFile);

    const edge = await saturate('gateway edge (valid key)', `${stack.baseUrl}/oaic/v1/models`, auth);
    const baseline = await saturate('bare Fastify route', `${bare.url}/oaic/v1/models`, auth);
    const rounds = await offerRounds(
      { name: 'gateway edge (valid key)', base: stack.baseUrl, headers: auth },
      { name: 'bare Fastify route', base: bare.url, headers: auth },
    );
    const edgeAtRate = medianRound(rounds.edge);
    const bareAtRate = medianRound(rounds.bare);
    const p99s = (side: Measured[]) => side.map((m) => m.p99.toFixed(2)).join(', ');
    process.stdout.write(
      `\n${report(`Saturation (closed loop, autocannon, ${DURATION_S} s)`, edge, baseline)}\n\n` +
        `${report(`Offered ${TARGET_RATE} RPS (open loop, evenly paced; median of ${ROUNDS} rounds of ${ROUND_S} s by p99)`, edgeAtRate, bareAtRate)}\n` +
        `p99 per round (ms): edge ${p99s(rounds.edge)}; bare ${p99s(rounds.bare)}\n`,
    );
    const rateHeld = rounds.edge.every((round) => round.rps >= TARGET_RATE * 0.98);
    process.stdout.write(
      `targets: >= ${TARGET_RATE} RPS ${edge.rps >= TARGET_RATE ? 'met' : 'NOT met'} (max ${edge.rps.toFixed(0)}); ` +
        `p99 < 5 ms at ${TARGET_RATE} RPS ${edgeAtRate.p99 < 5 && rateHeld ? 'met' : 'NOT met'} (${edgeAtRate.p99.toFixed(2)} ms)\n`,
    );
    const failed = edge.errors + rounds.edge.reduce((sum, round) => sum + round.errors, 0);
    if (failed > 0) throw new Error(`${failed} failed requests against the edge`);
  } finally {
    bare?.stop();
    await stack?.stop();
    await db.drop().catch(() => undefined);
    log.end();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`bench:edge failed: ${error.message}\n`);
  process.exit(1);
});
