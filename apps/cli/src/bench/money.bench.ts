/**
 * `npm run bench:money`: the books at scale, through a freshly launched stack. The bench writes
 * BENCH_MONEY_RECORDS usage records (default 1,000,000) spread over BENCH_MONEY_TENANTS tenants (default
 * 100) and 90 days, each with its ledger entries (a hold and its settlement) and every tenant's top-up and
 * stored balance, straight into the run's database; then it measures, through the admin API:
 * 1. `reconcile --all` over every tenant, BENCH_MONEY_RUNS times (target ≤ 10 s each);
 * 2. `usage --by day` for one tenant, BENCH_MONEY_QUERIES times: p50 and p99 (target p99 ≤ 300 ms).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { AdminClient } from '../admin/admin-client';
import { launchStack, type RunningStack } from '../stack/stack-launcher';
import { ms } from './bench-format';

const RECORDS = Number(process.env.BENCH_MONEY_RECORDS ?? 1_000_000);
const TENANTS = Number(process.env.BENCH_MONEY_TENANTS ?? 100);
const RUNS = Number(process.env.BENCH_MONEY_RUNS ?? 3);
const QUERIES = Number(process.env.BENCH_MONEY_QUERIES ?? 200);
const KINDS = ['chat', 'batch_line', 'media_task', 'music_task', 'assistants_run', 'images', 'audio', 'embeddings'];

/** Tenants, their records and ledger entries in a handful of set-based statements. */
async function seed(sql: pg.Client, prefix: string): Promise<string> {
  await sql.query(`INSERT INTO tenants (id, slug, name) SELECT gen_random_uuid(), $1 || g, 'bench ' || g FROM generate_series(0, $2 - 1) g`, [prefix, TENANTS]);
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
            now() - (g % 90) * interval '1 day', ($4::text[])[1 + g % array_length($4::text[], 1)], NULL
       FROM generate_series(0, $2 - 1) g JOIN t ON t.n = g % $3`,
    [prefix, RECORDS, TENANTS, KINDS],
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
  await sql.query('ANALYZE usage_records; ANALYZE ledger_entries; ANALYZE tenants; ANALYZE balances');
  return `${prefix}0`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
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
      sink: (app, line) => log.write(`[${app}] ${line}\n`),
    });
    await sql.connect();
    const admin = new AdminClient({ url: stack.adminUrl, timeoutMs: 300_000 });
    const seeding = Date.now();
    const tenant = await seed(sql, `bench-money-${stamp}-`);
    process.stdout.write(
      `seeded ${RECORDS} usage records and ${2 * RECORDS + TENANTS} ledger entries in ${TENANTS} tenants in ${ms(Date.now() - seeding, 0)}\n`,
    );

    const reconciles: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const report = await admin.reconcile({ all: true });
      reconciles.push(performance.now() - started);
      const failing = report.tenants.filter((t) => !t.ok);
      if (failing.length) throw new Error(`reconcile found ${failing.length} failing tenant(s): ${failing[0]!.tenant}: ${failing[0]!.findings[0]?.message}`);
      if (run === 0) process.stdout.write(`reconcile --all: ${report.checked} tenants, all reconciled (server ${ms(report.tookMs, 0)})\n`);
    }
    process.stdout.write(`reconcile --all: ${reconciles.map((t) => ms(t, 0)).join(', ')} (target ≤ 10000 ms)\n`);

    const queries: number[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const started = performance.now();
      await admin.usage({ tenant, by: 'day' });
      queries.push(performance.now() - started);
    }
    queries.sort((a, b) => a - b);
    process.stdout.write(
      `usage --by day, one tenant of ${Math.round(RECORDS / TENANTS)} records: p50 ${ms(percentile(queries, 50))}, p99 ${ms(percentile(queries, 99))} over ${QUERIES} queries (target p99 ≤ 300 ms)\n`,
    );
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
