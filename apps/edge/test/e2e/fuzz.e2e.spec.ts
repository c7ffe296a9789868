/**
 * Property-based fuzzing of every built route of the route table through the running gateway: hostile
 * bodies, headers, queries and path parameters (support/fuzz-cases.ts). For every case: no 5xx (the
 * sandbox upstream never fails on its own, so any 5xx is the gateway's), every 4xx in the route
 * family's error dialect, and a body the route's contract refuses is never served; after the run, the
 * tenant whose key carried the refused bodies has exactly the balance it started with.
 *
 * The unauthenticated music callback is fuzzed beside the contract's routes; after every case the edge
 * that answers is the process that started (a crash would have it restarted under another pid).
 *
 * FUZZ_RUNS cases per route (50 by default, `npm run fuzz` runs 10,000); FUZZ_SEED replays a run;
 * FUZZ_KEEP_GOING=1 records every violation instead of stopping at (and shrinking) the first.
 */
import { BUILT_ROUTES, type RouteDef } from '@gateway/contracts';
import fc from 'fast-check';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, errors, request } from 'undici';
import { z } from 'zod';
import { storedBalance } from './support/billing-fixtures';
import { listenerPid } from './support/edge-process';
import { dialectViolation } from './support/error-dialects';
import { fuzzCaseArbitrary, type FuzzCase, type FuzzKeys } from './support/fuzz-cases';
import { seedOf } from './support/fuzz-seeds';
import { adminClient, baseUrl, createTenantWithKey, type TenantWithKey } from './support/gateway';

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() : Number(process.env.FUZZ_SEED);
const KEEP_GOING = process.env.FUZZ_KEEP_GOING === '1';
/** Each route's cases run as this many concurrent properties (seeds SEED, SEED+1, ...). */
const SHARDS = Number(process.env.FUZZ_SHARDS ?? (RUNS >= 1000 ? 4 : 1));
/** Per case: some carry megabyte bodies through storage and the bus. */
const SHARD_BUDGET_MS = 90_000 + Math.ceil(RUNS / SHARDS) * 150;
/** Routes fuzzed side by side in a short run. */
const SHORT_RUN_ROUTES = 12;
/** Fuzz traffic comes from its own loopback address, so per-address limits it trips touch no other spec. */
const SOURCE_ADDRESS = process.env.FUZZ_SOURCE_ADDRESS ?? '127.0.0.77';

/** The upstream callback intake: public, unauthenticated, not a route of the contract. */
const MUSIC_CALLBACK_ROUTE: RouteDef = {
  id: 'music.callbacks',
  method: 'POST',
  path: '/music/callbacks/{token}',
  family: 'music',
  auth: 'bearer',
  status: 'Stable',
  summary: 'Upstream music callback',
  built: true,
  body: z.looseObject({}),
};
const FUZZED_ROUTES: readonly RouteDef[] = [...BUILT_ROUTES, MUSIC_CALLBACK_ROUTE];

/** The pid of the edge the cases go to, read once before the run. */
let edgePid: number | undefined;

const agent = new Agent({ connections: 64, keepAliveTimeout: 10_000, pipelining: 1, headersTimeout: 5_000, bodyTimeout: 5_000, localAddress: SOURCE_ADDRESS });

interface RouteTally {
  route: RouteDef;
  cases: number;
  unsendable: number;
  /** Cases the shared pool left unanswered and a connection of their own then carried. */
  resent: number;
  refusedByContract: number;
  statuses: Map<number, number>;
  violations: Map<string, string>;
  failure?: string;
}

interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
}

/** Sends one case on `dispatcher`; null when undici itself refuses to send it (a header it will not write). */
async function sendOn(fuzzCase: FuzzCase, dispatcher: Agent): Promise<Answer | null> {
  try {
    const response = await request(`${baseUrl()}${fuzzCase.path}`, {
      method: fuzzCase.method as 'GET',
      headers: fuzzCase.headers,
      body: fuzzCase.body,
      dispatcher,
      // A fresh connection per case: one hostile case must not leave a socket that stalls the next.
      reset: true,
      // A body of megabytes may be read, stored and answered after the pool's 5 s on a loaded machine.
      ...(fuzzCase.body !== undefined && fuzzCase.body.length > 1_000_000 && { headersTimeout: 30_000 }),
      // Also bounds a request stuck before its headers timer starts (connecting, or its body not yet written).
      signal: AbortSignal.timeout(fuzzCase.body !== undefined && fuzzCase.body.length > 1_000_000 ? 35_000 : 10_000),
    });
    const text = await response.body.text();
    const contentType = response.headers['content-type'];
    return { status: response.statusCode, contentType: Array.isArray(contentType) ? contentType.join(', ') : contentType, text };
  } catch (error) {
    if (error instanceof errors.InvalidArgumentError || error instanceof errors.NotSupportedError) return null;
    return { status: 0, contentType: undefined, text: `no answer: ${(error as { code?: string }).code ?? (error as Error).message}` };
  }
}

/**
 * Sends one case over the shared keep-alive pool. A case left unanswered there is sent again on a
 * connection of its own: the pool's sockets can be left unusable by an earlier hostile request (seen
 * with undici under this mix), which is the client's trouble; unanswered twice is the gateway's.
 */
async function send(fuzzCase: FuzzCase, tally: RouteTally): Promise<Answer | null> {
  const answer = await sendOn(fuzzCase, agent);
  if (answer?.status !== 0) return answer;
  tally.resent++;
  const alone = new Agent({ connections: 1, pipelining: 1, headersTimeout: 5_000, bodyTimeout: 5_000, localAddress: SOURCE_ADDRESS });
  try {
    return await sendOn(fuzzCase, alone);
  } finally {
    await alone.destroy();
  }
}

/** What is wrong with the answer to a case, or null. The first word is the violation's class. */
function violationOf(route: RouteDef, fuzzCase: FuzzCase, answer: Answer): string | null {
  if (edgePid !== undefined && !existsSync(`/proc/${edgePid}`)) return `edge-exited: the edge process ${edgePid} is gone`;
  if (answer.status === 0) return `no-answer: ${answer.text}`;
  if (answer.status >= 500) return `5xx: ${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status < 200 || (answer.status >= 300 && answer.status < 400)) return `unexpected-status: ${answer.status}`;
  if (answer.status >= 400) {
    const wrong = dialectViolation(route.family, answer.status, answer.text, answer.contentType);
    if (wrong) return `dialect-${answer.status}: ${wrong}`;
  } else if (fuzzCase.refusedByContract) {
    return `served-invalid: the contract refuses this body, yet it was answered ${answer.status}`;
  }
  return null;
}

/** Where each violating case is written whole (FUZZ_DUMP_DIR), to be sent again byte for byte. */
const DUMP_DIR = process.env.FUZZ_DUMP_DIR;

function dumpCase(route: RouteDef, fuzzCase: FuzzCase, kind: string): void {
  const body = fuzzCase.body === undefined ? undefined : Buffer.from(fuzzCase.body).toString('base64');
  const file = join(DUMP_DIR!, `${route.id}-${kind}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
  writeFileSync(file, JSON.stringify({ method: fuzzCase.method, path: fuzzCase.path, headers: fuzzCase.headers, body }));
}

async function fuzzRoute(route: RouteDef, keys: FuzzKeys, tally: RouteTally): Promise<void> {
  const seed = seedOf(route)!;
  const property = fc.asyncProperty(fuzzCaseArbitrary(route, seed, keys), async (fuzzCase) => {
    const answer = await send(fuzzCase, tally);
    tally.cases++;
    if (answer === null) {
      tally.unsendable++;
      return;
    }
    if (fuzzCase.refusedByContract) tally.refusedByContract++;
    tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
    const violation = violationOf(route, fuzzCase, answer);
    if (violation === null) return;
    const kind = violation.split(':')[0]!;
    if (DUMP_DIR !== undefined) dumpCase(route, fuzzCase, kind);
    const example = `${violation}\n      case: ${String((fuzzCase as unknown as Record<symbol, () => string>)[fc.toStringMethod]!())}`;
    const known = tally.violations.get(kind);
    if (known === undefined || example.length < known.length) tally.violations.set(kind, example);
    if (!KEEP_GOING) throw new Error(violation);
  });
  // Shrinking a case the gateway never answers costs a timeout per step: bound each shard's run.
  const shards = await Promise.all(
    Array.from({ length: SHARDS }, (_, shard) =>
      fc.check(property, { numRuns: Math.ceil(RUNS / SHARDS), seed: SEED + shard, interruptAfterTimeLimit: SHARD_BUDGET_MS }),
    ),
  );
  const failed = shards.find((details) => details.failed);
  if (failed) tally.failure = fc.defaultReportMessage(failed) ?? 'failed';
}

function table(tallies: RouteTally[]): string {
  const rows = tallies.map((t) => {
    const statuses = [...t.statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    return `${t.route.method.padEnd(6)} ${t.route.path.padEnd(58)} ${String(t.cases).padStart(6)} cases  ${String(t.refusedByContract).padStart(5)} refused-by-contract  ${String(t.unsendable).padStart(3)} unsendable  ${String(t.resent).padStart(3)} resent  ${statuses}`;
  });
  return `fuzz: ${RUNS} runs per route in ${SHARDS} shard(s), seed ${SEED}\n${rows.join('\n')}\n`;
}

describe(`fuzzing every built route (${RUNS} cases each)`, () => {
  let served: TenantWithKey;
  let refused: TenantWithKey;
  let keys: FuzzKeys;
  let before: { admin: string; stored: bigint };
  const tallies: RouteTally[] = [];

  beforeAll(async () => {
    edgePid = await listenerPid(baseUrl());
    served = await createTenantWithKey({ label: 'fuzz-served', balance: '100000.00' });
    refused = await createTenantWithKey({ label: 'fuzz-refused', balance: '50.00' });
    const gone = await createTenantWithKey({ label: 'fuzz-revoked' });
    await adminClient().revokeKey(gone.id);
    keys = { served: served.key, refused: refused.key, revoked: gone.key };
    before = { admin: (await adminClient().balance(refused.slug)).balanceMicros, stored: (await storedBalance(refused.slug)).balance };
  });

  afterAll(async () => {
    await agent.close();
  });

  it('has a seed for every built route', () => {
    expect(BUILT_ROUTES.filter((route) => seedOf(route) === undefined).map((route) => route.id)).toEqual([]);
  });

  it(
    'answers no 5xx, every 4xx in the family dialect, and never serves a body its contract refuses',
    async () => {
      const only = process.env.FUZZ_ROUTES?.split(',');
      const routes = FUZZED_ROUTES.filter((route) => seedOf(route) !== undefined && (!only || only.includes(route.id)));
      for (const route of routes) tallies.push({ route, cases: 0, unsendable: 0, resent: 0, refusedByContract: 0, statuses: new Map(), violations: new Map() });
      // A short run fuzzes SHORT_RUN_ROUTES routes at a time; a long one takes the routes in turn (each with
      // its shards), so one test process is never generating and checking a hundred concurrent properties'
      // cases, and no route's time budget is spent waiting on ninety others.
      const group = RUNS < 1000 ? SHORT_RUN_ROUTES : 1;
      for (let i = 0; i < tallies.length; i += group) await Promise.all(tallies.slice(i, i + group).map((tally) => fuzzRoute(tally.route, keys, tally)));
      process.stdout.write(`\n${table(tallies)}`);
      const failures = tallies.flatMap((t) =>
        t.failure || t.violations.size > 0
          ? [
              `${t.route.method} ${t.route.path}:\n${[...t.violations.values()].map((v) => `    ${v}`).join('\n')}${t.failure ? `\n    ${t.failure.split('\n').slice(0, 6).join('\n    ')}` : ''}`,
            ]
          : [],
      );
      expect(failures).toEqual([]);
      for (const tally of tallies) expect(tally.cases).toBeGreaterThanOrEqual(RUNS);
      expect(await listenerPid(baseUrl())).toBe(edgePid);
    },
    Math.ceil(FUZZED_ROUTES.length / (RUNS < 1000 ? SHORT_RUN_ROUTES : 1)) * SHARD_BUDGET_MS + 120_000,
  );

  it('leaves the balance of the tenant whose requests were all refused untouched', async () => {
    expect(tallies.reduce((sum, t) => sum + t.refusedByContract, 0)).toBeGreaterThan(0);
    const after = { admin: (await adminClient().balance(refused.slug)).balanceMicros, stored: (await storedBalance(refused.slug)).balance };
    expect(after).toEqual(before);
  });
});
