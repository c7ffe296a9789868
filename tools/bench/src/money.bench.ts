/**
 * `npm run bench:money`: the books at scale, through a freshly launched stack. The bench writes
 * BENCH_MONEY_RECORDS usage records (default 1,000,000) spread over BENCH_MONEY_TENANTS tenants (default
 * 100) and 90 days, each with its ledger entries (a hold and its settlement) and every tenant's top-up and
 * stored balance, straight into the run's database (set-based INSERT … SELECT generate_series; the
 * hourly rollup's triggers fire as they do for the writers); then it measures, through the admin API:
 * 1. `reconcile --all` over every tenant, BENCH_MONEY_RUNS times (target ≤ 10 s each);
 * 2. after adding one tenant of BENCH_MONEY_HEAVY records (default 1,000,000), `usage --by day|model|key|kind`
 *    for that tenant, BENCH_MONEY_QUERIES times each: p50 and p99 (target p99 ≤ 300 ms), and `--by day`
 *    over the last 30 days (whole days and a part day);
 * 3. `reconcile --all` once more, over both.
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

const RECORDS = Number(process.env.BENCH_MONEY_RECORDS ?? 1_000_000);
const TENANTS = Number(process.env.BENCH_MONEY_TENANTS ?? 100);
const RUNS = Number(process.env.BENCH_MONEY_RUNS ?? 3);
const HEAVY = Number(process.env.BENCH_MONEY_HEAVY ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_MONEY_QUERIES ?? 50);
const RECONCILE_TARGET_MS = 10_000;
const USAGE_TARGET_MS = 300;
const KINDS = ['chat', 'batch_line', 'media_task', 'music_task', 'assistants_run', 'images', 'audio', 'embeddings'];

/** Tenants, their records and ledger entries in a handful of set-based statements; returns the first tenant's slug. */
async function seed(sql: pg.Client, prefix: string, tenants: number, records: number): Promise<string> {
  await sql.query(`INSERT INTO tenants (id, slug, name) SELECT gen_random_uuid(), $1 || g, 'bench ' || g FROM generate_series(0, $2 - 1) g`, [prefix, tenants]);
  await sql.query(
    `INSERT INTO ledger_entries (tenant_id, kind, pool, amount_micros, note)
     SELECT id, 'topup', 'balance', 1000000000000, 'bench' FROM tenants WHERE slug LIKE $1 || '%'`,
    [prefix],
  );
  await sql.query(
    `WITH t AS (SELECT id, row_number() OVER (ORDER BY slug) - 1 AS n FROM tenants WHERE slug LIKE $1 || '%')
     INSERT INTO usage_records (request_id, tenant_id, key_id, model_id, family, route, prompt_tokens, completion_tokens,
                                latency_ms, outcome, status, created_at, kind, subject_id)
     SELECT $1 || 'r' || g, t.id, t.id, 'bench-gpt', 'oaic', 'oaic.chat', 10, 20, 5, 'ok', 200,
            now() - (g % 90) * interval '1 day' - (g % 997) * interval '1 minute', ($4::text[])[1 + g % array_length($4::text[], 1)], NULL
       FROM generate_series(0, $2 - 1) g JOIN t ON t.n = g % $3`,
    [prefix, records, tenants, KINDS],
  );
  for (const [kind, amount] of [
    ['reserve', -100],
    ['settle', 40],
  ] as const) {
    await sql.query(
      `INSERT INTO ledger_entries (tenant_id, kind, pool, amount_micros, request_id, created_at)
       SELECT tenant_id, $2, 'balance', $3, request_id, created_at FROM usage_records WHERE request_id LIKE $1 || 'r%'`,
      [prefix, kind, amount],
    );
  }
  await sql.query(
    `INSERT INTO balances (tenant_id, micros, updated_at)
     SELECT l.tenant_id, sum(l.amount_micros), now() FROM ledger_entries l JOIN tenants t ON t.id = l.tenant_id
      WHERE t.slug LIKE $1 || '%' AND l.pool = 'balance' GROUP BY l.tenant_id`,
    [prefix],
  );
  // What autovacuum does to a live database: statistics, and the visibility map index-only scans rely on.
  await sql.query('VACUUM ANALYZE usage_records, ledger_entries, tenants, balances');
  return `${prefix}0`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function ratio(measured: number, target: number): string {
  return `${(measured / target).toFixed(2)}× the target`;
}

/** `reconcile --all`, `runs` times; every tenant must reconcile. */
async function reconcileAll(admin: AdminClient, books: string, runs: number): Promise<void> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const report = await admin.reconcile({ all: true });
    times.push(performance.now() - started);
    const failing = report.tenants.filter((t) => !t.ok);
    if (failing.length) throw new Error(`reconcile found ${failing.length} failing tenant(s): ${failing[0]!.tenant}: ${failing[0]!.findings[0]?.message}`);
  }
  const worst = Math.max(...times);
  process.stdout.write(
    `reconcile --all over ${books}: ${times.map((t) => ms(t, 0)).join(', ')}, all reconciled (target ≤ ${RECONCILE_TARGET_MS} ms: ${ratio(worst, RECONCILE_TARGET_MS)})\n`,
  );
}

async function main(): Promise<void> {
  const stamp = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const logFile = path.join(os.tmpdir(), `gateway-bench-money-${stamp}.log`);
  const log = createWriteStream(logFile);
  const storageDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-bench-money-'));
  const { createTestDatabase } = await import('@gateway/db');
  const db = await createTestDatabase(undefined, 'bench');
  const sql = new pg.Client({ connectionString: db.url });
  let stack: RunningStack | undefined;
  try {
    process.stdout.write(`launching the stack (logs: ${logFile})\n`);
    stack = await launchStack({
      removeNamespaceOnStop: true,
      natsPrefix: `benchmoney${stamp}.`,
      databaseUrl: db.url,
      storageDir,
      migrate: false,
      logLevel: 'warn',
      env: { NO_COLOR: '1' },
      appEnv: { accounts: BENCH_USAGE_FOLD_ENV },
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    await sql.connect();
    const admin = new AdminClient({ url: stack.adminUrl, token: stack.adminToken, timeoutMs: 300_000 });
    const seeding = Date.now();
    await seed(sql, `bench-money-${stamp}-`, TENANTS, RECORDS);
    process.stdout.write(
      `seeded ${RECORDS} usage records and ${2 * RECORDS + TENANTS} ledger entries in ${TENANTS} tenants in ${ms(Date.now() - seeding, 0)}\n`,
    );
    await reconcileAll(admin, `${RECORDS} records in ${TENANTS} tenants`, RUNS);

    const heavySeeding = Date.now();
    const heavy = await seed(sql, `bench-money-${stamp}h-`, 1, HEAVY);
    process.stdout.write(`seeded one more tenant of ${HEAVY} usage records in ${ms(Date.now() - heavySeeding, 0)}\n`);
    process.stdout.write(`the accounts service folded them into the hourly rollup in ${ms(await usageFolded(sql), 0)}\n`);
    const month = new Date(Date.now() - 30 * 86_400_000).toISOString();
    for (const [label, query] of [
      ['--by day', { by: 'day' }],
      ['--by model', { by: 'model' }],
      ['--by key', { by: 'key' }],
      ['--by kind', { by: 'kind' }],
      ['--by day --since 30 days ago', { by: 'day', since: month }],
    ] as const) {
      // A few queries first, untimed: the first ones after seeding read cold pages and warm the connections.
      for (let i = 0; i < 3; i++) await admin.usage({ tenant: heavy, ...query });
      const times: number[] = [];
      for (let i = 0; i < QUERIES; i++) {
        const started = performance.now();
        await admin.usage({ tenant: heavy, ...query });
        times.push(performance.now() - started);
      }
      times.sort((x, y) => x - y);
      const p99 = percentile(times, 99);
      process.stdout.write(
        `usage ${label}, one tenant of ${HEAVY} records: p50 ${ms(percentile(times, 50))}, p99 ${ms(p99)} over ${QUERIES} queries ` +
          `(target p99 ≤ ${USAGE_TARGET_MS} ms: ${ratio(p99, USAGE_TARGET_MS)})\n`,
      );
    }
    await reconcileAll(admin, `${RECORDS + HEAVY} records in ${TENANTS + 1} tenants`, 1);
  } finally {
    await sql.end().catch(() => undefined);
    await stack?.stop();
    await db.drop().catch(() => undefined);
    await rm(storageDir, { recursive: true, force: true });
    log.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:money failed: ${(error as Error).message}\n`);
  process.exit(1);
});
