/**
 * `npm run bench:chat`: the chat path through the gateway against calling the sandbox upstream directly,
 * in one run on one machine. Measures added latency at concurrency 1, throughput at 64 connections with
 * 20 ms upstream latency, added time to first token, and 1,000 concurrent streams (stalled or broken);
 * then translated paths, the response cache (cache.section.ts) and billing on against off.
 */
import { createTestDatabase } from '@gateway/db';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Agent, request } from 'undici';
import { AdminClient, loadConfigFile, launchStack, REPO_ROOT } from '@gateway/cli';
import { ms, signed, signedMs } from './bench-format';
import { benchBilling } from './billing.section';
import { benchCache } from './cache.section';
import { closedLoad } from './closed-load';
import { benchTranslation, formatTable } from './translation.section';

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 2000);
const LATENCY_ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 5);
const RPS_SECONDS = Number(process.env.BENCH_RPS_SECONDS ?? 10);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const FIRST_TOKEN_SAMPLES = Number(process.env.BENCH_FIRST_TOKEN_SAMPLES ?? 1000);
const TRANSLATION_SAMPLES = Number(process.env.BENCH_TRANSLATION_SAMPLES ?? 2000);
/** Requests to each side before measuring: enough for the JIT to settle in every process of the path. */
/** BENCH_CHAT_ONLY=cache runs the response cache section alone; =budgets the budgets section alone. */
const CACHE_ONLY = process.env.BENCH_CHAT_ONLY === 'cache';
const BUDGETS_ONLY = process.env.BENCH_CHAT_ONLY === 'budgets';
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);
/** A stream that goes this long without an event counts as stalled. */
const STALL_MS = 5000;

interface Target {
  url: string;
  key: string;
  model: (kind: 'plain' | 'slow' | 'stream') => string;
}

const agent = new Agent({ connections: STREAMS + 128, keepAliveTimeout: 60_000, pipelining: 1 });

function body(model: string, stream = false): string {
  return JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Benchmark the gateway with a short question.' }] });
}

function headers(target: Target) {
  return { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
}

async function once(target: Target, model: string): Promise<number> {
  const started = performance.now();
  const response = await request(`${target.url}/chat/completions`, { method: 'POST', headers: headers(target), body: body(model), dispatcher: agent });
  await response.body.text();
  if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode} from ${target.url}`);
  return performance.now() - started;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

interface LatencyRound {
  direct: { p50: number; p99: number };
  gateway: { p50: number; p99: number };
}

/**
 * Sequential latency in rounds, each alternating direct and gateway in blocks of 100 so drift on a busy
 * machine hits both alike. A round's percentiles come from its own samples; the report takes the
 * median round and prints every round, so one noisy spell neither decides the verdict nor hides.
 */
async function sequential(direct: Target, gateway: Target): Promise<LatencyRound[]> {
  for (let i = 0; i < WARMUP; i++) await Promise.all([once(direct, direct.model('plain')), once(gateway, gateway.model('plain'))]);
  const rounds: LatencyRound[] = [];
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    const samples = { direct: [] as number[], gateway: [] as number[] };
    for (let done = 0; done < SEQUENTIAL; done += 100) {
      for (let i = 0; i < 100; i++) samples.direct.push(await once(direct, direct.model('plain')));
      for (let i = 0; i < 100; i++) samples.gateway.push(await once(gateway, gateway.model('plain')));
    }
    const summary = (values: number[]) => {
      values.sort((a, b) => a - b);
      return { p50: percentile(values, 0.5), p99: percentile(values, 0.99) };
    };
    rounds.push({ direct: summary(samples.direct), gateway: summary(samples.gateway) });
  }
  return rounds;
}

/** The round whose added latency at `key` is the median of all rounds. */
function medianRound(rounds: LatencyRound[], key: 'p50' | 'p99'): LatencyRound {
  const added = (round: LatencyRound) => round.gateway[key] - round.direct[key];
  return [...rounds].sort((a, b) => added(a) - added(b))[Math.floor(rounds.length / 2)]!;
}

function throughput(target: Target, connections: number, seconds: number) {
  return closedLoad({ url: `${target.url}/chat/completions`, key: target.key, model: target.model('slow'), connections, seconds });
}

interface StreamOutcome {
  firstTokenMs: number;
  events: number;
  stalled: boolean;
  broken: boolean;
}

/** One streamed chat: time to the first content delta, event count, and whether it stalled or broke. */
async function stream(target: Target, model: string): Promise<StreamOutcome> {
  const started = performance.now();
  const outcome: StreamOutcome = { firstTokenMs: NaN, events: 0, stalled: false, broken: true };
  try {
    const response = await request(`${target.url}/chat/completions`, {
      method: 'POST',
      headers: headers(target),
      body: body(model, true),
      dispatcher: agent,
      bodyTimeout: STALL_MS,
    });
    if (response.statusCode !== 200) {
      await response.body.dump();
      return outcome;
    }
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += chunk.toString();
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (event === 'data: [DONE]') outcome.broken = false;
        else if (event.startsWith('data: ')) {
          outcome.events++;
          if (Number.isNaN(outcome.firstTokenMs) && event.includes('"content":"') && !event.includes('"content":""'))
            outcome.firstTokenMs = performance.now() - started;
        }
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT') outcome.stalled = true;
  }
  return outcome;
}

async function firstTokens(direct: Target, gateway: Target, count: number): Promise<{ direct: number[]; gateway: number[] }> {
  const result = { direct: [] as number[], gateway: [] as number[] };
  // As many warm-up streams as measured ones: the stream path's code is as warm as the unary path's.
  for (let i = 0; i < count; i++) await Promise.all([stream(direct, direct.model('plain')), stream(gateway, gateway.model('plain'))]);
  for (let i = 0; i < count; i++) {
    result.direct.push((await stream(direct, direct.model('plain'))).firstTokenMs);
    result.gateway.push((await stream(gateway, gateway.model('plain'))).firstTokenMs);
  }
  result.direct.sort((a, b) => a - b);
  result.gateway.sort((a, b) => a - b);
  return result;
}

async function manyStreams(target: Target, count: number): Promise<{ completed: number; stalled: number; broken: number; seconds: number }> {
  const started = performance.now();
  const outcomes = await Promise.all(Array.from({ length: count }, () => stream(target, target.model('stream'))));
  return {
    completed: outcomes.filter((o) => !o.broken && !o.stalled).length,
    stalled: outcomes.filter((o) => o.stalled).length,
    broken: outcomes.filter((o) => o.broken && !o.stalled).length,
    seconds: (performance.now() - started) / 1000,
  };
}

const ratio = (gateway: number, direct: number) => `${(gateway / direct).toFixed(2)}x`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

async function main(): Promise<void> {
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
    logLevel: 'warn',
    sink: () => undefined,
  });
  try {
    const admin = new AdminClient({ url: stack.adminUrl, token });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    const slug = `bench-${stamp}`;
    await admin.apply({
      models: [
        {
          id: `bench-stream-${stamp}`,
          displayName: 'Bench stream',
          capability: 'chat',
          public: false,
          provider: 'sandbox-openai',
          upstreamModel: 'sandbox-gpt@chunk=50',
          createdAt: '2025-01-01T00:00:00Z',
        },
      ],
      tenants: [{ slug, billing: 'payg', models: [`bench-stream-${stamp}`], featureControls: {} }],
    });
    // Every request is billed against the prepaid balance: enough for the whole run.
    await admin.topup({ tenant: slug, amount: '100000.00' });
    const key = (await admin.createKey({ tenant: slug, name: 'bench' })).key;
    const direct: Target = {
      url: `${stack.sandboxUrl}/openai/v1`,
      key: 'sk-sandbox-upstream',
      model: (kind) => (kind === 'plain' ? 'sandbox-gpt' : kind === 'slow' ? 'sandbox-gpt@latency=20' : 'sandbox-gpt@chunk=50'),
    };
    const gateway: Target = {
      url: `${stack.baseUrl}/oaic/v1`,
      key,
      model: (kind) => (kind === 'plain' ? 'sandbox-gpt' : kind === 'slow' ? 'sandbox-gpt-slow' : `bench-stream-${stamp}`),
    };

    // A key of its own project, held against a hard key budget and a hard project budget beside the balance.
    await admin.createProject({ tenant: slug, name: 'budgeted' });
    const budgetedKey = await admin.createKey({ tenant: slug, name: 'budgeted', project: 'budgeted' });
    await admin.setBudget({ key: budgetedKey.id, amount: '10000.00', period: 'day' });
    await admin.setBudget({ tenant: slug, project: 'budgeted', amount: '10000.00', period: 'month' });
    const budgeted: Target = { ...gateway, key: budgetedKey.key };
    const budgetsSection = async () => {
      process.stdout.write(`
budgets: a key under a key budget and a project budget against one without (${LATENCY_ROUNDS} rounds of ${SEQUENTIAL})...
`);
      const rounds = await sequential(gateway, budgeted);
      const round = medianRound(rounds, 'p50');
      const added = round.gateway.p50 - round.direct.p50;
      const rows = [
        ['measure', 'no budget', 'key + project budget', 'added', 'target', ''],
        [`latency p50, c=1 (median of ${LATENCY_ROUNDS})`, ms(round.direct.p50), ms(round.gateway.p50), signedMs(added), '≤ +0.1 ms', verdict(added <= 0.1)],
      ];
      process.stdout.write('\n' + formatTable(rows) + '\n');
      process.stdout.write(`added p50 per round (ms): ${rounds.map((r) => signed(r.gateway.p50 - r.direct.p50)).join(' ')}\n`);
    };
    if (BUDGETS_ONLY) {
      await budgetsSection();
      return;
    }

    if (CACHE_ONLY) {
      process.stdout.write('\nthe response cache: hits, misses, and hits under load...\n');
      process.stdout.write('\n' + (await benchCache({ admin, baseUrl: stack.baseUrl, stamp })) + '\n');
      return;
    }
    process.stdout.write(`latency at concurrency 1 (${LATENCY_ROUNDS} rounds of ${SEQUENTIAL} requests each)...\n`);
    const lat = await sequential(direct, gateway);
    process.stdout.write(`throughput at 64 connections, 20 ms upstream latency (${RPS_SECONDS} s each)...\n`);
    const rpsDirect = await throughput(direct, 64, RPS_SECONDS);
    const rpsGateway = await throughput(gateway, 64, RPS_SECONDS);
    process.stdout.write(`time to first token (${FIRST_TOKEN_SAMPLES} streams each)...\n`);
    const ttft = await firstTokens(direct, gateway, FIRST_TOKEN_SAMPLES);
    process.stdout.write(`${STREAMS} concurrent streams (50 ms between chunks)...\n`);
    const streamsDirect = await manyStreams(direct, STREAMS);
    const streamsGateway = await manyStreams(gateway, STREAMS);

    const p50Round = medianRound(lat, 'p50');
    const p99Round = medianRound(lat, 'p99');
    const p50 = { d: p50Round.direct.p50, g: p50Round.gateway.p50 };
    const p99 = { d: p99Round.direct.p99, g: p99Round.gateway.p99 };
    const t50 = { d: percentile(ttft.direct, 0.5), g: percentile(ttft.gateway, 0.5) };
    const t99 = { d: percentile(ttft.direct, 0.99), g: percentile(ttft.gateway, 0.99) };
    const rows: string[][] = [
      ['measure', 'direct (sandbox)', 'gateway', 'added / ratio', 'target', ''],
      [`latency p50, c=1 (median of ${LATENCY_ROUNDS})`, ms(p50.d), ms(p50.g), signedMs(p50.g - p50.d), '≤ +1 ms', verdict(p50.g - p50.d <= 1)],
      [`latency p99, c=1 (median of ${LATENCY_ROUNDS})`, ms(p99.d), ms(p99.g), signedMs(p99.g - p99.d), '≤ +3 ms', verdict(p99.g - p99.d <= 3)],
      [
        'RPS, 64 conn, 20 ms upstream',
        rpsDirect.rps.toFixed(0),
        rpsGateway.rps.toFixed(0),
        ratio(rpsGateway.rps, rpsDirect.rps),
        '≥ 2000',
        verdict(rpsGateway.rps >= 2000),
      ],
      [
        '  p99 under load / errors',
        `${ms(rpsDirect.p99)} / ${rpsDirect.errors}`,
        `${ms(rpsGateway.p99)} / ${rpsGateway.errors}`,
        ratio(rpsGateway.p99, rpsDirect.p99),
        '',
        '',
      ],
      ['first token p50', ms(t50.d), ms(t50.g), signedMs(t50.g - t50.d), '', ''],
      ['first token p99', ms(t99.d), ms(t99.g), signedMs(t99.g - t99.d), '', ''],
      [
        `${STREAMS} streams completed`,
        String(streamsDirect.completed),
        String(streamsGateway.completed),
        ratio(streamsGateway.completed, streamsDirect.completed),
        `${STREAMS}`,
        verdict(streamsGateway.completed === STREAMS),
      ],
      [
        '  stalled / broken',
        `${streamsDirect.stalled} / ${streamsDirect.broken}`,
        `${streamsGateway.stalled} / ${streamsGateway.broken}`,
        '',
        '0 / 0',
        verdict(streamsGateway.stalled + streamsGateway.broken === 0),
      ],
      [
        '  wall time',
        `${streamsDirect.seconds.toFixed(2)} s`,
        `${streamsGateway.seconds.toFixed(2)} s`,
        ratio(streamsGateway.seconds, streamsDirect.seconds),
        '',
        '',
      ],
    ];
    const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    process.stdout.write('\n' + rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n') + '\n');
    const perRound = (key: 'p50' | 'p99') => lat.map((round) => signed(round.gateway[key] - round.direct[key])).join(' ');
    process.stdout.write(`added latency per round (ms): p50 ${perRound('p50')}; p99 ${perRound('p99')}\n`);
    process.stdout.write(`\ntranslated paths against same-protocol pass-through (${TRANSLATION_SAMPLES} requests each)...\n`);
    process.stdout.write(
      '\n' + formatTable(await benchTranslation({ sandboxUrl: stack.sandboxUrl, gatewayUrl: stack.baseUrl, key, samples: TRANSLATION_SAMPLES })) + '\n',
    );
    process.stdout.write('\nthe response cache: hits, misses, and hits under load...\n');
    process.stdout.write('\n' + (await benchCache({ admin, baseUrl: stack.baseUrl, stamp })) + '\n');
    await budgetsSection();
  } finally {
    await stack.stop();
    await agent.close();
    await db.drop().catch(() => undefined);
  }
}

main()
  .then(async () => {
    if (process.env.BENCH_BILLING === '0' || CACHE_ONLY || BUDGETS_ONLY) return;
    process.stdout.write('\nbilling on against billing off (two stacks side by side)...\n');
    process.stdout.write(`\n${await benchBilling()}\n`);
  })
  .catch((error: Error) => {
    process.stderr.write(`bench:chat failed: ${error.message}\n`);
    process.exit(1);
  });
