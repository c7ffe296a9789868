/**
 * `npm run bench:cpu`: CPU per request of every process on the chat path, beside the sandbox upstream's
 * own CPU per request in the same run. For each scenario (non-streamed and streamed chat passed through, the
 * same stream from Bedrock's ConverseStream, msgc crossed to an OpenAI upstream) it offers a fixed rate, then saturates with 64 connections, and reads
 * utime+stime from /proc of each app, NATS, Redis and every Postgres backend before and after. The ratio
 * of the gateway's total to the upstream's own is the figure: it holds across machines where µs do not.
 *
 * Last, the floor: a bare Fastify route and a bare NATS responder doing one request-reply per request
 * on the same NATS, measured the same way, beside the upstream's own CPU.
 *
 * `--profile APP` (edge, chat, accounts, ...) writes a .cpuprofile of that app over the run into
 * .data/profiles/. The bench process itself (the load generator, and the log relay it stands in for) is
 * not counted.
 */
import { createTestDatabase } from '@gateway/db';
import autocannon from 'autocannon';
import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { request } from 'undici';
import { AdminClient, loadConfigFile, launchStack, type RunningStack, REPO_ROOT, STACK_APPS, type StackApp } from '@gateway/cli';
import { formatTable } from './translation.section';
import { startFloor } from './nats-floor.phase';
import { cpuBetween, pidsNamed, readCpu, type CpuGroup } from './process-cpu';

const SECONDS = Number(process.env.BENCH_CPU_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_CPU_RATE ?? 300);
const CONNECTIONS = Number(process.env.BENCH_CPU_CONNECTIONS ?? 64);
const LOG_LEVEL = (process.env.BENCH_LOG_LEVEL ?? 'info') as 'info' | 'warn';
const QUESTION = 'Benchmark the gateway with a short question.';
/** `BENCH_CPU_ONLY=Bedrock`: only the scenarios whose names match (and those they are compared to). */
const ONLY = process.env.BENCH_CPU_ONLY ? new RegExp(process.env.BENCH_CPU_ONLY) : undefined;

interface Scenario {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  streamed: boolean;
  /** An earlier scenario with the same answer from another protocol: the gateway's CPU is also shown as a ratio to its. */
  comparedTo?: string;
}

interface Phase {
  requests: number;
  rps: number;
  errors: number;
  /** CPU µs per answered request, by process group. */
  perRequest: Map<string, number>;
}

function profiledApp(): StackApp | undefined {
  const at = process.argv.indexOf('--profile');
  if (at === -1) return undefined;
  const app = process.argv[at + 1] as StackApp | undefined;
  if (!app || !STACK_APPS.includes(app)) throw new Error(`--profile takes one of ${STACK_APPS.join(', ')}`);
  return app;
}

function groupsOf(stack: RunningStack): CpuGroup[] {
  const apps: CpuGroup[] = stack.processes.map((p) => ({ name: p.name, pids: () => (p.pid === undefined ? [] : [p.pid]) }));
  return [
    ...apps,
    { name: 'nats-server', pids: () => pidsNamed('nats-server') },
    { name: 'redis-server', pids: () => pidsNamed('redis-server') },
    { name: 'postgres', pids: () => pidsNamed('postgres') },
  ];
}

async function phase(groups: CpuGroup[], scenario: Scenario, rate: number | undefined): Promise<Phase> {
  const options = {
    url: scenario.url,
    method: 'POST',
    headers: scenario.headers,
    body: scenario.body,
    connections: CONNECTIONS,
    ...(rate !== undefined && { overallRate: rate }),
  };
  await autocannon({ ...options, duration: 2 });
  const before = readCpu(groups);
  const result = await autocannon({ ...options, duration: SECONDS });
  const used = cpuBetween(before, readCpu(groups));
  const answered = result['2xx'];
  const perRequest = new Map([...used].map(([name, micros]) => [name, answered > 0 ? micros / answered : 0]));
  return { requests: answered, rps: answered / result.duration, errors: result.errors + result.timeouts + result.non2xx, perRequest };
}

/** Events in one streamed answer, for the cost per chunk. */
async function chunksOf(scenario: Scenario): Promise<number> {
  const response = await request(scenario.url, { method: 'POST', headers: scenario.headers, body: scenario.body });
  const text = await response.body.text();
  return text.split('\n').filter((line) => line.startsWith('data:')).length;
}

function gatewayTotal(p: Phase): number {
  return [...p.perRequest.entries()].filter(([name]) => name !== 'sandbox').reduce((sum, [, us]) => sum + us, 0);
}

function report(scenario: Scenario, offered: Phase, saturated: Phase, chunks: number, baseline?: { offered: Phase; saturated: Phase }): string {
  const names = [...offered.perRequest.keys()];
  const us = (value: number) => `${value.toFixed(0)} µs`;
  const rows: string[][] = [['process', `at ${RATE} req/s offered`, `at ${CONNECTIONS} connections`]];
  for (const name of names.filter((n) => n !== 'sandbox')) rows.push([name, us(offered.perRequest.get(name)!), us(saturated.perRequest.get(name)!)]);
  rows.push(['gateway total', us(gatewayTotal(offered)), us(gatewayTotal(saturated))]);
  rows.push(['sandbox upstream (yardstick)', us(offered.perRequest.get('sandbox')!), us(saturated.perRequest.get('sandbox')!)]);
  const ratio = (p: Phase) => `${(gatewayTotal(p) / p.perRequest.get('sandbox')!).toFixed(2)}×`;
  rows.push(['gateway ÷ upstream', ratio(offered), ratio(saturated)]);
  if (scenario.streamed && chunks > 0) {
    rows.push([`gateway per chunk (${chunks} events)`, us(gatewayTotal(offered) / chunks), us(gatewayTotal(saturated) / chunks)]);
  }
  if (baseline) {
    const times = (p: Phase, b: Phase) => `${(gatewayTotal(p) / gatewayTotal(b)).toFixed(2)}×`;
    rows.push([`gateway ÷ that of "${scenario.comparedTo}"`, times(offered, baseline.offered), times(saturated, baseline.saturated)]);
  }
  rows.push(['answered req/s / errors', `${offered.rps.toFixed(0)} / ${offered.errors}`, `${saturated.rps.toFixed(0)} / ${saturated.errors}`]);
  return `\n${scenario.name}\n${formatTable(rows)}\n`;
}

const FLOOR_NAME = 'the floor: one HTTP hop and one NATS request-reply, nothing else (same body, same NATS)';

/** The floor's own processes, its total, and that total over the first scenario's upstream. */
function floorReport(offered: Phase, saturated: Phase, upstream: { offered: number; saturated: number }): string {
  const us = (value: number) => `${value.toFixed(0)} µs`;
  const total = (p: Phase) => [...p.perRequest.values()].reduce((sum, v) => sum + v, 0);
  const rows: string[][] = [['process', `at ${RATE} req/s offered`, `at ${CONNECTIONS} connections`]];
  for (const name of offered.perRequest.keys()) rows.push([name, us(offered.perRequest.get(name)!), us(saturated.perRequest.get(name)!)]);
  rows.push(['floor total', us(total(offered)), us(total(saturated))]);
  rows.push([
    'floor ÷ upstream (non-streamed chat above)',
    `${(total(offered) / upstream.offered).toFixed(2)}×`,
    `${(total(saturated) / upstream.saturated).toFixed(2)}×`,
  ]);
  rows.push(['answered req/s / errors', `${offered.rps.toFixed(0)} / ${offered.errors}`, `${saturated.rps.toFixed(0)} / ${saturated.errors}`]);
  return `\n${FLOOR_NAME}\n${formatTable(rows)}\n`;
}

async function main(): Promise<void> {
  const profile = profiledApp();
  const profileDir = path.join(REPO_ROOT, '.data', 'profiles');
  if (profile) mkdirSync(profileDir, { recursive: true });
  const db = await createTestDatabase(undefined, 'bench');
  const stamp = randomBytes(3).toString('hex');
  const token = randomBytes(16).toString('hex');
  process.stdout.write('starting the gateway (sandbox, services, edge)...\n');
  const stack = await launchStack({
    removeNamespaceOnStop: true,
    natsPrefix: `bench${stamp}.`,
    databaseUrl: db.url,
    migrate: false,
    adminToken: token,
    logLevel: LOG_LEVEL,
    sink: () => undefined,
    ...(profile && { nodeArgs: { [profile]: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] } }),
  });
  try {
    const admin = new AdminClient({ url: stack.adminUrl, token });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    const slug = `bench-${stamp}`;
    await admin.apply({ tenants: [{ slug, billing: 'payg', models: [], featureControls: {} }] });
    await admin.topup({ tenant: slug, amount: '1000000.00' });
    const key = (await admin.createKey({ tenant: slug, name: 'bench' })).key;
    const json = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // A key of its own project, held against a hard key budget and a hard project budget beside the balance.
    await admin.createProject({ tenant: slug, name: 'budgeted' });
    const budgeted = await admin.createKey({ tenant: slug, name: 'budgeted', project: 'budgeted' });
    await admin.setBudget({ key: budgeted.id, amount: '100000.00', period: 'day' });
    await admin.setBudget({ tenant: slug, project: 'budgeted', amount: '100000.00', period: 'month' });
    const budgetedJson = { authorization: `Bearer ${budgeted.key}`, 'content-type': 'application/json' };
    const chat = (stream: boolean, model = 'sandbox-gpt') => JSON.stringify({ model, stream, messages: [{ role: 'user', content: QUESTION }] });
    const STREAMED = 'oaic chat, streamed, passed through';
    const NON_STREAMED = 'oaic chat, non-streamed, passed through';
    const scenarios: Scenario[] = [
      { name: NON_STREAMED, url: `${stack.baseUrl}/oaic/v1/chat/completions`, headers: json, body: chat(false), streamed: false },
      {
        name: 'oaic chat, non-streamed, under a key budget and a project budget',
        url: `${stack.baseUrl}/oaic/v1/chat/completions`,
        headers: budgetedJson,
        body: chat(false),
        streamed: false,
        comparedTo: NON_STREAMED,
      },
      { name: STREAMED, url: `${stack.baseUrl}/oaic/v1/chat/completions`, headers: json, body: chat(true), streamed: true },
      {
        name: 'oaic chat, streamed from Bedrock ConverseStream (signed, event-stream framed, translated)',
        url: `${stack.baseUrl}/oaic/v1/chat/completions`,
        headers: json,
        body: chat(true, 'sandbox-bedrock-claude'),
        streamed: true,
        comparedTo: STREAMED,
      },
      {
        name: 'msgc messages crossed to an OpenAI upstream, non-streamed',
        url: `${stack.baseUrl}/msgc/v1/messages`,
        headers: { 'x-api-key': key, 'msgc-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sandbox-gpt', max_tokens: 100, messages: [{ role: 'user', content: QUESTION }] }),
        streamed: false,
      },
    ];
    let yardstick: { offered: number; saturated: number } | undefined;
    const measured = new Map<string, { offered: Phase; saturated: Phase }>();
    process.stdout.write(`each scenario: ${RATE} req/s offered, then ${CONNECTIONS} connections, ${SECONDS} s each (log level ${LOG_LEVEL})\n`);
    for (const scenario of scenarios) {
      if (ONLY && !ONLY.test(scenario.name) && !scenarios.some((s) => s.comparedTo === scenario.name && ONLY.test(s.name))) continue;
      process.stdout.write(`${scenario.name}...\n`);
      const chunks = scenario.streamed ? await chunksOf(scenario) : 0;
      const offered = await phase(groupsOf(stack), scenario, RATE);
      const saturated = await phase(groupsOf(stack), scenario, undefined);
      measured.set(scenario.name, { offered, saturated });
      process.stdout.write(report(scenario, offered, saturated, chunks, scenario.comparedTo ? measured.get(scenario.comparedTo) : undefined));
      yardstick ??= { offered: offered.perRequest.get('sandbox')!, saturated: saturated.perRequest.get('sandbox')! };
    }
    if (!ONLY) {
      process.stdout.write(`${FLOOR_NAME}...\n`);
      const floor = await startFloor(`bench${stamp}.floor.echo`, stack.natsUrl);
      try {
        const scenario: Scenario = { name: FLOOR_NAME, url: floor.url, headers: json, body: chat(false), streamed: false };
        const offered = await phase(floor.groups, scenario, RATE);
        const saturated = await phase(floor.groups, scenario, undefined);
        process.stdout.write(floorReport(offered, saturated, yardstick!));
      } finally {
        floor.stop();
      }
    }
  } finally {
    await stack.stop();
    await db.drop().catch(() => undefined);
  }
  if (profile) process.stdout.write(`\n${profile}'s CPU profile is in ${profileDir} (open it in Chrome DevTools or speedscope)\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
