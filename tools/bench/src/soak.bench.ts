/**
 * `npm run soak`: a fresh stack on loopback (its own database and NATS prefix) under mixed traffic for
 * SOAK_SECONDS (10 minutes by default, bounded by SOAK_MAX_REQUESTS too): chat unary and streamed in the
 * three families, bad bodies, bad keys, and key churn through the admin API. Each app's RSS, heap,
 * event-loop lag and open resources are read in a window after the warm-up and in one at the end; the
 * run fails unless each stayed flat (within 10 %), every answer was the expected one, churned keys
 * stopped working at once, and every request the sandbox upstream served has its usage row.
 */
import { createTestDatabase } from '@gateway/db';
import { connectNats } from '@gateway/platform';
import type { NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { request } from 'undici';
import { z } from 'zod';
import { AdminClient, loadConfigFile, launchStack, type RunningStack, REPO_ROOT } from '@gateway/cli';
import { compareFigures, FLAT, readRss, sampleWindow, slopePerMinute, type AppFigures } from './soak-stats';
import { churnKeys, emptyTally, runTraffic, type TrafficTally } from './soak-traffic';

/** A steady load this 2-core machine serves with CPU to spare, so the bookkeeping keeps pace and growth means a leak, not a backlog. */
const DEFAULT_RATE = 300;

const SoakEnv = z
  .object({
    SOAK_SECONDS: z.coerce.number().int().min(30).max(7200).default(600),
    /** Traffic before the first stats window: code paths JIT-compiled, pools and caches filled. */
    SOAK_WARMUP_SECONDS: z.coerce.number().int().min(5).optional(),
    SOAK_SAMPLE_SECONDS: z.coerce.number().int().min(3).max(60).default(10),
    SOAK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    /** Requests per second offered (0: closed loop, as fast as the gateway answers — a stress run, not a soak). */
    SOAK_RATE: z.coerce.number().int().min(0).max(100_000).default(DEFAULT_RATE),
    /** Seconds between the RSS trace's points. */
    SOAK_TRACE_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
    SOAK_MAX_REQUESTS: z.coerce.number().int().positive().default(5_000_000),
    SOAK_CHURN_INTERVAL_MS: z.coerce.number().int().min(100).default(1000),
  })
  .transform((env) => ({ ...env, SOAK_WARMUP_SECONDS: env.SOAK_WARMUP_SECONDS ?? Math.min(60, Math.max(10, Math.round(env.SOAK_SECONDS / 10))) }))
  .refine((env) => env.SOAK_SECONDS >= env.SOAK_WARMUP_SECONDS + 2 * env.SOAK_SAMPLE_SECONDS + 5, {
    message: 'SOAK_SECONDS must leave room for the warm-up and two stats windows',
    path: ['SOAK_SECONDS'],
  });
type SoakEnv = z.infer<typeof SoakEnv>;

const HOST = '127.0.0.1';
const out = (line = '') => process.stdout.write(`${line}\n`);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const FORMAT: Record<keyof AppFigures, (value: number) => string> = {
  rssBytes: mb,
  heapUsedBytes: mb,
  externalBytes: mb,
  lagP99Ms: (v) => `${v.toFixed(2)} ms`,
  activeResources: (v) => String(v),
};
const LABEL: Record<keyof AppFigures, string> = {
  rssBytes: 'RSS',
  heapUsedBytes: 'heap used',
  externalBytes: 'external',
  lagP99Ms: 'loop lag p99',
  activeResources: 'open resources',
};

function loadEnv(): SoakEnv {
  const parsed = SoakEnv.safeParse(process.env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`${issue.path.join('.')}: ${issue.message}`);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
}

async function usageRows(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM usage_records')).rows[0]!.n);
  } finally {
    await client.end();
  }
}

async function sandboxServed(sandboxUrl: string): Promise<number> {
  const response = await request(`${sandboxUrl}/_sandbox/stats`);
  return z.object({ total: z.number().int() }).parse(await response.body.json()).total;
}

/** Usage records are written from a durable stream: wait until they stop changing and match, or for a minute. */
async function reconcile(stack: RunningStack, databaseUrl: string): Promise<{ rows: number; served: number }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [rows, served] = await Promise.all([usageRows(databaseUrl), sandboxServed(stack.sandboxUrl)]);
    if (rows === served || Date.now() > deadline) return { rows, served };
    await sleep(500);
  }
}

interface RssTrace {
  seconds: number[];
  byApp: Map<string, number[]>;
}

/** Every app's RSS at a fixed interval for the whole run: the shape of the curve, not only its ends. */
async function traceRss(
  nats: NatsConnection,
  stack: RunningStack,
  started: number,
  until: number,
  everySeconds: number,
  signal: AbortSignal,
): Promise<RssTrace> {
  const trace: RssTrace = { seconds: [], byApp: new Map() };
  while (!signal.aborted && Date.now() < until) {
    const at = (Date.now() - started) / 1000;
    const rss = await readRss(nats, stack.natsPrefix, stack.sandboxUrl).catch(() => undefined);
    if (rss) {
      trace.seconds.push(at);
      for (const [app, bytes] of rss) trace.byApp.set(app, [...(trace.byApp.get(app) ?? []), bytes]);
    }
    await sleep(everySeconds * 1000, undefined, { signal }).catch(() => undefined);
  }
  return trace;
}

function describeTrace(trace: RssTrace, warmupSeconds: number): string[] {
  const lines: string[] = [];
  for (const [app, values] of [...trace.byApp.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (values.length !== trace.seconds.length) continue;
    const after = trace.seconds.map((at, i) => [at, values[i]!] as const).filter(([at]) => at >= warmupSeconds);
    const slope = slopePerMinute(
      after.map(([at]) => at),
      after.map(([, bytes]) => bytes),
    );
    const points = values.map((bytes) => (bytes / 2 ** 20).toFixed(0)).join(' ');
    lines.push(`  ${app.padEnd(9)} ${points}   (${slope >= 0 ? '+' : ''}${(slope / 2 ** 20).toFixed(2)} MB/min)`);
  }
  return lines;
}

async function soak(env: SoakEnv): Promise<boolean> {
  const stamp = randomBytes(3).toString('hex');
  const token = randomBytes(16).toString('hex');
  const logFile = path.join(os.tmpdir(), `gateway-soak-${stamp}.log`);
  const log = createWriteStream(logFile);
  const db = await createTestDatabase(undefined, 'soak');
  out(
    `soak: ${env.SOAK_SECONDS} s of mixed traffic ${env.SOAK_RATE > 0 ? `at ${env.SOAK_RATE} requests/s, at most` : 'closed-loop at'} ${env.SOAK_CONCURRENCY} concurrent (at most ${env.SOAK_MAX_REQUESTS} requests), key churn every ${env.SOAK_CHURN_INTERVAL_MS} ms`,
  );
  out(`starting the gateway on ${HOST} (app logs in ${logFile})...`);
  const stack = await launchStack({
    host: HOST,
    removeNamespaceOnStop: true,
    natsPrefix: `soak${stamp}.`,
    databaseUrl: db.url,
    migrate: false,
    adminToken: token,
    logLevel: 'warn',
    env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --expose-gc`.trim() },
    sink: (app, line) => log.write(`[${app}] ${line}\n`),
  });
  const nats = await connectNats(stack.natsUrl, 'soak');
  const stop = new AbortController();
  // Every paced worker and the trace wait on this one signal.
  setMaxListeners(env.SOAK_CONCURRENCY + 8, stop.signal);
  try {
    const admin = new AdminClient({ url: stack.adminUrl, token });
    await admin.apply(await loadConfigFile(path.join(REPO_ROOT, 'infra', 'config', 'sandbox.yaml'), stack.env));
    const tenant = `soak-${stamp}`;
    await admin.createTenant({ slug: tenant, billing: 'payg' });
    await admin.topup({ tenant, amount: '10000.00' });
    const key = (await admin.createKey({ tenant, name: 'soak' })).key;

    const started = Date.now();
    const until = started + env.SOAK_SECONDS * 1000;
    const tally: TrafficTally = emptyTally();
    const running = Promise.all([
      runTraffic(
        { baseUrl: stack.baseUrl, key, concurrency: env.SOAK_CONCURRENCY, rate: env.SOAK_RATE, until, maxRequests: env.SOAK_MAX_REQUESTS, signal: stop.signal },
        tally,
      ),
      churnKeys(admin, tenant, stack.baseUrl, { until, intervalMs: env.SOAK_CHURN_INTERVAL_MS, signal: stop.signal }, tally),
    ]);
    // An app that dies ends the run early; the verdicts then name it.
    void stack.firstExit.then(() => stop.abort());
    const trace = traceRss(nats, stack, started, until, env.SOAK_TRACE_SECONDS, stop.signal);

    await sleep(env.SOAK_WARMUP_SECONDS * 1000);
    out(`warm-up done (${tally.sent} requests); reading every app for ${env.SOAK_SAMPLE_SECONDS} s...`);
    const first = await sampleWindow(nats, stack.natsPrefix, stack.sandboxUrl, env.SOAK_SAMPLE_SECONDS);
    const endWindowAt = until - (env.SOAK_SAMPLE_SECONDS + 2) * 1000;
    await sleep(Math.max(0, endWindowAt - Date.now()));
    out(`reading every app again at ${((Date.now() - started) / 1000).toFixed(0)} s (${tally.sent} requests)...`);
    const last = await sampleWindow(nats, stack.natsPrefix, stack.sandboxUrl, env.SOAK_SAMPLE_SECONDS);
    await running;
    const seconds = (Date.now() - started) / 1000;
    const dead = stack.processes.filter((p) => !p.running).map((p) => p.name);

    out('\nwaiting for the usage records to catch up...');
    const billing = await reconcile(stack, db.url);

    const rows: string[][] = [['app', 'measure', 'start', 'end', 'change', '']];
    let flat = true;
    for (const [app, start] of first) {
      const end = last.get(app);
      if (!end) {
        rows.push([app, '(no answer at the end)', '', '', '', 'FAIL']);
        flat = false;
        continue;
      }
      for (const verdict of compareFigures(start, end)) {
        const change = verdict.start === 0 ? (verdict.end === 0 ? '0 %' : 'new') : `${(((verdict.end - verdict.start) / verdict.start) * 100).toFixed(1)} %`;
        rows.push([
          app,
          LABEL[verdict.measure],
          FORMAT[verdict.measure](verdict.start),
          FORMAT[verdict.measure](verdict.end),
          change,
          verdict.flat === null ? '(info)' : verdict.flat ? 'flat' : 'GREW',
        ]);
        flat &&= verdict.flat !== false;
      }
    }
    out(`\n${table(rows)}`);
    out(
      `(start: the ${env.SOAK_SAMPLE_SECONDS} s after a ${env.SOAK_WARMUP_SECONDS} s warm-up; end: the last ${env.SOAK_SAMPLE_SECONDS} s; both under the same load. Per window: median RSS and open resources, median of per-second loop-lag p99, heap used and external memory after a full collection.`,
    );
    out(` flat: end ≤ start × ${FLAT.ratio}, with ${FLAT.lagSlackMs} ms of slack on loop lag and ${FLAT.resourceSlack} on open resources)`);
    out(`\nRSS every ${env.SOAK_TRACE_SECONDS} s (MB), and its slope over the run after the warm-up:`);
    for (const line of describeTrace(await trace, env.SOAK_WARMUP_SECONDS)) out(line);

    const unexpected = [...tally.unexpected.entries()].map(([label, { count, example }]) => `  ${label}: ${count}× e.g. ${example}`);
    out(
      `\n${tally.sent} requests in ${seconds.toFixed(0)} s (${(tally.sent / seconds).toFixed(0)}/s): ${Object.entries(tally.ok)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ')}`,
    );
    const refusals = [...tally.statuses.entries()].filter(([label]) => label.startsWith('bad-key')).map(([label, n]) => `${label.split(' ')[1]} ${n}`);
    out(`bad keys (from their own address): ${refusals.join(', ')}`);
    if (unexpected.length > 0) out(`unexpected answers:\n${unexpected.join('\n')}`);
    out(
      `key churn: ${tally.churn.cycles} cycles (create, use, regenerate, revoke), ${tally.churn.failures.length} failures${tally.churn.failures.length ? `: ${tally.churn.failures.slice(0, 5).join('; ')}` : ''}`,
    );
    out(`billing: ${billing.served} requests served by the sandbox upstream, ${billing.rows} usage records (${billing.served - billing.rows} unbilled)`);

    const verdicts: Array<[string, boolean]> = [
      ['every app flat within 10 %', flat],
      ['every answer as expected', tally.unexpected.size === 0],
      ['churned keys refused at once', tally.churn.failures.length === 0 && tally.churn.cycles > 0],
      ['0 unbilled served requests', billing.rows === billing.served],
      ['no app exited', dead.length === 0],
    ];
    out(`\n${verdicts.map(([what, ok]) => `${ok ? 'PASS' : 'FAIL'}  ${what}`).join('\n')}${dead.length ? `\n(exited: ${dead.join(', ')})` : ''}`);
    return verdicts.every(([, ok]) => ok);
  } finally {
    stop.abort();
    await nats.close().catch(() => undefined);
    await stack.stop();
    await db.drop().catch(() => undefined);
    await new Promise((resolve) => log.end(resolve));
  }
}

async function main(): Promise<void> {
  const passed = await soak(loadEnv());
  process.exit(passed ? 0 : 1);
}

main().catch((error: Error) => {
  process.stderr.write(`soak failed: ${error.message}\n`);
  process.exit(1);
});
