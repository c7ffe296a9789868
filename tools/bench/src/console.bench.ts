/**
 * `npm run bench:console`: the tenant console's page loads with BENCH_CONSOLE_RECORDS usage records
 * (default 1,000,000) of one tenant over 90 days, each with a hold and its settlement in the ledger,
 * written straight into the run's database. A person of the tenant signs in; each page's API calls are
 * made at once, as the page makes them, BENCH_CONSOLE_ROUNDS times (target ≤ 1000 ms a page).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { AdminClient, launchStack, type RunningStack } from '@gateway/cli';
import { BENCH_USAGE_FOLD_ENV, usageFolded } from './usage-fold';
import { ms } from './bench-format';

const RECORDS = Number(process.env.BENCH_CONSOLE_RECORDS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_CONSOLE_ROUNDS ?? 3);
const PASSWORD = 'a quiet river at dawn';

async function seed(sql: pg.Client, tenantId: string, keyIds: string[]): Promise<void> {
  await sql.query(
    `INSERT INTO usage_records (request_id, tenant_id, key_id, model_id, family, route, prompt_tokens, completion_tokens,
                                latency_ms, outcome, status, created_at, kind, subject_id)
     SELECT 'c' || g, $1::uuid, ($3::uuid[])[1 + g % array_length($3::uuid[], 1)],
            (ARRAY['gpt-a', 'gpt-b', 'claude-c', 'gemini-d', 'sora-e'])[1 + g % 5], 'oaic', 'oaic.chat.completions',
            10 + g % 50, 20 + g % 70, 50 + ((g::bigint * 7919) % 2000)::int, 'ok', 200,
            (now() AT TIME ZONE 'UTC') - (g % 90) * interval '1 day' - (g % 86400) * interval '1 second',
            (ARRAY['chat', 'chat', 'chat', 'embeddings', 'media_task'])[1 + g % 5], NULL
       FROM generate_series(0, $2 - 1) g`,
    [tenantId, RECORDS, keyIds],
  );
  for (const [kind, amount] of [
    ['reserve', -100],
    ['settle', 40],
  ] as const) {
    await sql.query(
      `INSERT INTO ledger_entries (tenant_id, kind, pool, amount_micros, request_id, created_at)
       SELECT tenant_id, $2, 'balance', $3, request_id, created_at FROM usage_records WHERE tenant_id = $1::uuid`,
      [tenantId, kind, amount],
    );
  }
  await sql.query('ANALYZE usage_records; ANALYZE ledger_entries');
}

/** Signs a new owner of `tenant` in through the console API; returns its cookie. */
async function signIn(admin: AdminClient, base: string, tenant: string): Promise<string> {
  const email = `bench@${tenant}.example`;
  const invite = await admin.inviteConsoleUser({ tenant, email, role: 'owner' });
  const headers = { origin: base, 'content-type': 'application/json' };
  const token = new URL(invite.link).hash.replace('#token=', '');
  const accepted = await fetch(`${base}/console/api/invites/accept`, { method: 'POST', headers, body: JSON.stringify({ token, password: PASSWORD }) });
  if (!accepted.ok) throw new Error(`setting the password answered ${accepted.status}`);
  const signedIn = await fetch(`${base}/console/api/session`, { method: 'POST', headers, body: JSON.stringify({ email, password: PASSWORD }) });
  if (!signedIn.ok) throw new Error(`signing in answered ${signedIn.status}`);
  return signedIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

async function main(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const logFile = path.join(os.tmpdir(), `gateway-bench-console-${stamp}.log`);
  const log = createWriteStream(logFile);
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-bench-console-'));
  const { createTestDatabase } = await import('@gateway/db');
  const db = await createTestDatabase(undefined, 'bench');
  const sql = new pg.Client({ connectionString: db.url });
  let stack: RunningStack | undefined;
  try {
    process.stdout.write(`launching the stack (logs: ${logFile})\n`);
    const adminToken = randomBytes(16).toString('hex');
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: `benchconsole${stamp}.`,
      databaseUrl: db.url,
      storageDir,
      adminToken,
      migrate: false,
      logLevel: 'warn',
      env: { NO_COLOR: '1' },
      appEnv: { accounts: BENCH_USAGE_FOLD_ENV },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    await sql.connect();
    const admin = new AdminClient({ url: stack.adminUrl, token: adminToken, timeoutMs: 300_000 });
    const tenant = `bench-console-${stamp}`;
    await admin.createTenant({ slug: tenant, billing: 'payg' });
    await admin.topup({ tenant, amount: '1000.00' });
    const keyIds: string[] = [];
    for (let i = 0; i < 5; i++) keyIds.push((await admin.createKey({ tenant, name: `key-${i}` })).id);
    const { rows } = await sql.query<{ id: string }>('SELECT id FROM tenants WHERE slug = $1', [tenant]);
    const seeding = Date.now();
    await seed(sql, rows[0]!.id, keyIds);
    process.stdout.write(`seeded ${RECORDS} usage records and ${2 * RECORDS} ledger entries of one tenant in ${ms(Date.now() - seeding, 0)}\n`);
    process.stdout.write(`the accounts service folded them into the hourly rollup in ${ms(await usageFolded(sql), 0)}\n`);

    const base = stack.baseUrl;
    const cookie = await signIn(admin, base, tenant);
    const get = async (route: string): Promise<{ took: number; body: string }> => {
      const started = performance.now();
      const answer = await fetch(`${base}/console/api${route}`, { headers: { cookie } });
      const body = await answer.text();
      if (!answer.ok) throw new Error(`GET ${route} answered ${answer.status}: ${body.slice(0, 200)}`);
      return { took: performance.now() - started, body };
    };
    // The 200th page of records, walked to by cursor.
    let cursor = '';
    for (let i = 0; i < 199; i++)
      cursor = (JSON.parse((await get(`/usage/records${cursor ? `?cursor=${cursor}` : ''}`)).body) as { nextCursor: string }).nextCursor;
    const since = `${new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`;
    const pages: Record<string, string[]> = {
      overview: ['/overview', '/balance'],
      'usage, 30 days by day': [`/usage/summary?by=day&since=${since}`, `/usage/records?since=${since}`],
      'usage, 30 days by model': [`/usage/summary?by=model&since=${since}`, `/usage/records?since=${since}`],
      'usage, 90 days by key': ['/usage/summary?by=key', '/usage/records'],
      'usage records, 200th page': [`/usage/records?cursor=${cursor}`],
      tasks: ['/tasks?kind=media'],
      'webhook deliveries': ['/webhooks/deliveries'],
    };
    for (const [page, calls] of Object.entries(pages)) {
      const loads: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        const each = await Promise.all(calls.map(get));
        loads.push(`${ms(performance.now() - started, 0)} [${each.map((e) => Math.round(e.took)).join(', ')}]`);
      }
      process.stdout.write(`${page.padEnd(28)} ${loads.join('   ')}\n`);
    }
    process.stdout.write('each page: the time of its calls made at once, then each call in brackets (target ≤ 1000 ms a page)\n');
  } finally {
    await sql.end().catch(() => undefined);
    await stack?.stop();
    await db.drop().catch(() => undefined);
    await rm(storageDir, { recursive: true, force: true });
    log.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:console failed: ${(error as Error).message}\n`);
  process.exit(1);
});
