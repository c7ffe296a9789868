/**
 * Property-based fuzzing of every console and admin API route through the running stack: the tenant
 * console on the public listener (a signed-in owner's cookie and CSRF token), the operator console and
 * the admin API on the admin listener (an operator's session; the admin token). Hostile path parameters,
 * query values (NUL, control characters, lone surrogates, times out of range, huge strings, unknown
 * parameters) and bodies (support/console-fuzz-cases.ts). For every case: an answer below 500, never a
 * reset connection, every 4xx a JSON error with a code and a message, a sign-in redirect never an
 * internal error; the edge and admin processes are the ones that started.
 *
 * CONSOLE_FUZZ_RUNS cases per route (default: FUZZ_RUNS, 30 when unset, at most 2,000, so `npm run fuzz`
 * runs 2,000); CONSOLE_FUZZ_AT_ONCE routes run side by side (4); FUZZ_SEED replays a run.
 */
import { ADMIN_ROUTES, CONSOLE_ROUTES } from '@gateway/contracts';
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { consoleCaseArbitrary, type ConsoleCase, type ConsoleCredentials } from './support/console-fuzz-cases';
import { consoleFuzzRoutes, UNFUZZED, type ConsoleFuzzRoute } from './support/console-fuzz-routes';
import { PASSWORD, personWithPassword, signInConsole } from './support/console-people';
import { listenerPid } from './support/edge-process';
import { baseUrl, createTenantWithKey, e2eEnv, http, uniqueSlug } from './support/gateway';

const RUNS = Number(process.env.CONSOLE_FUZZ_RUNS ?? Math.min(Number(process.env.FUZZ_RUNS ?? 30), 2_000));
const SEED = process.env.FUZZ_SEED === undefined ? Date.now() : Number(process.env.FUZZ_SEED);
/** Routes fuzzed side by side. */
const AT_ONCE = Number(process.env.CONSOLE_FUZZ_AT_ONCE ?? 4);
const ROUTE_BUDGET_MS = 60_000 + RUNS * 120;
const SOURCE_ADDRESS = process.env.FUZZ_SOURCE_ADDRESS ?? '127.0.0.78';

const agent = new Agent({ connections: 32, pipelining: 1, headersTimeout: 15_000, bodyTimeout: 15_000, localAddress: SOURCE_ADDRESS });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

interface Tally {
  route: ConsoleFuzzRoute;
  cases: number;
  statuses: Map<number, number>;
  violation?: string;
  failure?: string;
}

function urlOf(route: ConsoleFuzzRoute): string {
  return route.caller === 'tenant' || route.caller === 'open-tenant' ? baseUrl() : e2eEnv().GW_E2E_ADMIN_URL;
}

async function send(base: string, fuzzCase: ConsoleCase): Promise<Answer | null> {
  try {
    const response = await request(`${base}${fuzzCase.path}`, {
      method: fuzzCase.method as 'GET',
      headers: fuzzCase.headers,
      body: fuzzCase.body,
      dispatcher: agent,
      reset: true,
      signal: AbortSignal.timeout(30_000),
    });
    // Read to the end: a connection reset after the headers (a cut CSV export) fails here.
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') return null;
    return { status: 0, headers: {}, text: `no answer: ${code ?? (error as Error).message}` };
  }
}

function violationOf(route: ConsoleFuzzRoute, answer: Answer): string | null {
  if (answer.status === 0) return `no-answer: ${answer.text}`;
  if (answer.status >= 500) return `5xx: ${answer.status} ${answer.text.slice(0, 300)}`;
  if (answer.status >= 300 && answer.status < 400) {
    const location = String(answer.headers.location ?? '');
    if (!route.navigation) return `redirect: ${answer.status} to ${location.slice(0, 200)}`;
    if (/internal/i.test(decodeURIComponent(location))) return `internal-redirect: ${location.slice(0, 200)}`;
    return null;
  }
  if (answer.status >= 400) {
    if (!/^application\/json\b/i.test(String(answer.headers['content-type'] ?? ''))) return `not-json-${answer.status}: ${answer.text.slice(0, 200)}`;
    try {
      // The routes' own refusals carry error.code and error.message; the listeners' HTTP-layer ones (414, 415, 431, a bad JSON body) their own dialect.
      const body = JSON.parse(answer.text) as { error?: { message?: unknown } | string; message?: unknown };
      const message = typeof body.error === 'object' ? body.error.message : body.message;
      if (typeof message !== 'string' || message === '') return `shape-${answer.status}: ${answer.text.slice(0, 200)}`;
    } catch {
      return `not-json-${answer.status}: ${answer.text.slice(0, 200)}`;
    }
  }
  return null;
}

async function fuzzRoute(route: ConsoleFuzzRoute, credentials: ConsoleCredentials, tally: Tally, seed: number): Promise<void> {
  const base = urlOf(route);
  const property = fc.asyncProperty(consoleCaseArbitrary(route, credentials), async (fuzzCase) => {
    const answer = await send(base, fuzzCase);
    tally.cases++;
    if (answer === null) return;
    tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
    const violation = violationOf(route, answer);
    if (violation !== null) {
      tally.violation ??= `${violation}\n      case: ${String((fuzzCase as unknown as Record<symbol, () => string>)[fc.toStringMethod]!())}`;
      throw new Error(violation);
    }
  });
  const details = await fc.check(property, { numRuns: RUNS, seed, interruptAfterTimeLimit: ROUTE_BUDGET_MS, endOnFailure: true });
  if (details.failed) tally.failure = (fc.defaultReportMessage(details) ?? 'failed').split('\n').slice(0, 6).join('\n    ');
}

describe(`fuzzing every console and admin API route (${RUNS} cases each)`, () => {
  let credentials: ConsoleCredentials;
  let pids: { edge: number; admin: number };
  const routes = consoleFuzzRoutes(uniqueSlug('fuzz-other'));
  const tallies: Tally[] = routes.map((route) => ({ route, cases: 0, statuses: new Map() }));

  beforeAll(async () => {
    pids = { edge: await listenerPid(baseUrl()), admin: await listenerPid(e2eEnv().GW_E2E_ADMIN_URL) };
    const tenant = await createTenantWithKey({ label: 'console-fuzz' });
    const email = `${uniqueSlug('fuzz-owner')}@example.com`;
    await personWithPassword(tenant.slug, email, 'owner');
    const other = routes.find((r) => r.path === '/admin/tenants/:slug')!.seed.params.slug![0]!;
    await http('POST', `${e2eEnv().GW_E2E_ADMIN_URL}/admin/tenants`, {
      headers: { authorization: `Bearer ${e2eEnv().GW_E2E_ADMIN_TOKEN}` },
      json: { slug: other },
    });
    credentials = {
      tenant: await signInConsole(baseUrl(), { email, password: PASSWORD }),
      operator: await signInConsole(e2eEnv().GW_E2E_ADMIN_URL, { token: e2eEnv().GW_E2E_ADMIN_TOKEN }),
      adminToken: e2eEnv().GW_E2E_ADMIN_TOKEN,
    };
  }, 60_000);

  afterAll(async () => {
    await agent.close();
  });

  it('seeds every route of the console and admin tables (a new route needs its seed in support/console-fuzz-routes.ts)', () => {
    const seeded = new Set(routes.map((route) => `${route.caller.replace('open-', '')} ${route.method} ${route.path}`));
    const tabled = [
      ...Object.values(CONSOLE_ROUTES).map((route) => `${route.side} ${route.method} ${route.path}`),
      ...Object.values(ADMIN_ROUTES).map((route) => `admin ${route.method} ${route.path}`),
    ];
    expect(tabled.filter((route) => !seeded.has(route) && !(route in UNFUZZED))).toEqual([]);
  });

  it(
    'answers every case below 500, never resets a connection, and refuses in JSON',
    async () => {
      for (let i = 0; i < tallies.length; i += AT_ONCE) {
        await Promise.all(tallies.slice(i, i + AT_ONCE).map((tally, j) => fuzzRoute(tally.route, credentials, tally, SEED + i + j)));
      }
      const rows = tallies.map((t) => {
        const statuses = [...t.statuses.entries()]
          .sort(([a], [b]) => a - b)
          .map(([status, n]) => `${status}×${n}`)
          .join(' ');
        return `${t.route.caller.padEnd(13)} ${t.route.method.padEnd(6)} ${t.route.path.padEnd(48)} ${String(t.cases).padStart(5)} cases  ${statuses}`;
      });
      process.stdout.write(`\nconsole fuzz: ${RUNS} runs per route, seed ${SEED}\n${rows.join('\n')}\n`);
      const failures = tallies.flatMap((t) =>
        t.violation || t.failure ? [`${t.route.method} ${t.route.path}: ${t.violation ?? ''}\n    ${t.failure ?? ''}`] : [],
      );
      expect(failures).toEqual([]);
      for (const tally of tallies) expect(tally.cases).toBeGreaterThanOrEqual(RUNS);
      expect({ edge: await listenerPid(baseUrl()), admin: await listenerPid(e2eEnv().GW_E2E_ADMIN_URL) }).toEqual(pids);
    },
    Math.ceil(routes.length / AT_ONCE) * ROUTE_BUDGET_MS + 120_000,
  );
});
