import { KeyCreated, ProjectView, SUBJECTS as S, TenantView, UsageSummary } from '@gateway/contracts';
import pg from 'pg';
import { ConsoleUsageRepository } from '../src/console/usage/console-usage.repository';
import { LATENCY_BUCKET_SQL } from '../src/console/usage/latency-histogram';
import { UsageFoldRepository } from '../src/usage/fold/usage-fold.repository';
import { modelGroupSql } from '../src/usage/usage-model-name';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

type By = 'model' | 'key' | 'project' | 'day' | 'kind';

/** The same summary read from the records alone, as it was before the rollup: what every summary must equal. */
const FROM_RECORDS = (group: string) => `
  SELECT ${group} AS "group", count(*)::int AS requests, sum(u.prompt_tokens)::int AS "promptTokens",
         sum(u.completion_tokens)::int AS "completionTokens", coalesce(sum(c.charged), 0)::text AS "costMicros"
    FROM usage_records u
    LEFT JOIN (SELECT request_id, -sum(amount_micros) AS charged FROM ledger_entries WHERE tenant_id = $1::uuid AND request_id IS NOT NULL GROUP BY 1) c
      ON c.request_id = u.request_id
   WHERE u.tenant_id = $1::uuid AND ($2::timestamp IS NULL OR u.created_at >= $2::timestamp) AND ($3::timestamp IS NULL OR u.created_at < $3::timestamp)
   GROUP BY 1 ORDER BY 1`;
/** The latency histogram read from the records alone. */
const LATENCY_FROM_RECORDS = (group: string) => `
  SELECT ${group} AS "group", ${LATENCY_BUCKET_SQL} AS bucket, count(*)::text AS count
    FROM usage_records u
   WHERE u.tenant_id = $1::uuid AND ($2::timestamp IS NULL OR u.created_at >= $2::timestamp) AND ($3::timestamp IS NULL OR u.created_at < $3::timestamp)
   GROUP BY 1, 2 ORDER BY 1, 2`;
const GROUPS: Record<By, string> = {
  model: modelGroupSql('u.model_id'),
  key: 'u.key_id::text',
  project: '(SELECT p.name FROM projects p JOIN api_keys k ON k.project_id = p.id WHERE k.id = u.key_id)',
  day: `to_char(u.created_at, 'YYYY-MM-DD')`,
  kind: 'u.kind',
};

// Each exactness check asks 20 summaries and histograms and reads the records for each: seconds under load.
jest.setTimeout(60_000);

/**
 * Usage summaries over the hourly rollup, and the console's latency histograms over the daily one, on a
 * real Postgres: equal to the records' own sums and counts before any
 * fold, after folds, with charges written after their record was folded, with part hours at a window's
 * ends, and with a record committed by a transaction that was still open while a fold ran.
 */
describe('usage fold', () => {
  let h: AccountsHarness;
  let sql: pg.Client;
  let pool: pg.Pool;
  let folds: UsageFoldRepository;
  let consoleUsage: ConsoleUsageRepository;
  let tenantId: string;
  let keyIds: string[];
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

  async function addRecords(prefix: string, count: number, hoursBack: number, client: pg.ClientBase = sql): Promise<void> {
    await client.query(
      `INSERT INTO usage_records (request_id, tenant_id, key_id, model_id, family, route, prompt_tokens, completion_tokens,
                                  latency_ms, outcome, status, created_at, kind)
       SELECT $1 || g, $2::uuid, ($3::uuid[])[1 + g % 2], (ARRAY['m-a', 'm-b', 'm-c'])[1 + g % 3], 'oaic', 'oaic.chat', g % 7, g % 11,
              5 + (g * 7919) % 3000, 'ok', 200, (now() AT TIME ZONE 'UTC') - ((g * 37) % ($5 * 60)) * interval '1 minute', (ARRAY['chat', 'media_task'])[1 + g % 2]
         FROM generate_series(0, $4 - 1) g`,
      [prefix, tenantId, keyIds, count, hoursBack],
    );
  }

  async function charge(prefix: string, kind: string, amount: number, client: pg.ClientBase = sql): Promise<void> {
    await client.query(
      `INSERT INTO ledger_entries (tenant_id, kind, pool, amount_micros, request_id)
       SELECT tenant_id, $2, 'balance', $3, request_id FROM usage_records WHERE tenant_id = $1::uuid AND request_id LIKE $4 || '%'`,
      [tenantId, kind, amount, prefix],
    );
  }

  async function expectExact(windows: [Date | null, Date | null][] = [[null, null]]): Promise<void> {
    for (const [since, until] of windows) {
      for (const by of Object.keys(GROUPS) as By[]) {
        const expected = (await sql.query(FROM_RECORDS(GROUPS[by]), [tenantId, since?.toISOString() ?? null, until?.toISOString() ?? null])).rows;
        const summary = await h.bus.request(
          S.accounts.billing.usageSummary,
          { tenant: 'fold-co', by, ...(since && { since: since.toISOString() }), ...(until && { until: until.toISOString() }) },
          UsageSummary,
        );
        const got = summary.rows.map(({ group, requests, promptTokens, completionTokens, costMicros }) => ({
          group,
          requests,
          promptTokens,
          completionTokens,
          costMicros,
        }));
        expect({ by, since, until, rows: got }).toEqual({ by, since, until, rows: expected });
        const bounds = [tenantId, since?.toISOString() ?? null, until?.toISOString() ?? null];
        const latency = (await sql.query(LATENCY_FROM_RECORDS(GROUPS[by]), bounds)).rows;
        const histogram = await consoleUsage.latency(tenantId, by, since?.toISOString(), until?.toISOString());
        histogram.sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : a.bucket - b.bucket));
        expect({ by, since, until, latency: histogram }).toEqual({ by, since, until, latency });
      }
    }
  }

  const windows = (): [Date | null, Date | null][] => [
    [null, null],
    [hoursAgo(30.5), null],
    [hoursAgo(50.25), hoursAgo(3.75)],
    [hoursAgo(10.2), hoursAgo(9.9)],
    [hoursAgo(71), hoursAgo(25)],
    [null, hoursAgo(20.5)],
  ];

  beforeAll(async () => {
    process.env.USAGE_FOLD_INTERVAL_MS = '3600000';
    h = await startAccountsHarness('accounts_usage_fold');
    sql = new pg.Client({ connectionString: h.db.url });
    await sql.connect();
    pool = new pg.Pool({ connectionString: h.db.url, max: 3 });
    folds = new UsageFoldRepository(pool);
    consoleUsage = new ConsoleUsageRepository(pool);
    tenantId = (await h.bus.request(S.accounts.tenants.create, { slug: 'fold-co', name: 'Fold Co' }, TenantView)).id;
    await h.bus.request(S.accounts.projects.create, { tenant: 'fold-co', name: 'research' }, ProjectView);
    keyIds = [
      (await h.bus.request(S.accounts.keys.create, { tenant: 'fold-co', name: 'one' }, KeyCreated)).id,
      (await h.bus.request(S.accounts.keys.create, { tenant: 'fold-co', name: 'two', project: 'research' }, KeyCreated)).id,
    ];
  });

  afterAll(async () => {
    await sql?.end();
    await pool?.end();
    await h?.stop();
  });

  it('sums the records alone before anything is folded', async () => {
    await addRecords('a-', 400, 72);
    await charge('a-', 'reserve', -100);
    await charge('a-', 'settle', 30);
    await expectExact(windows());
  });

  it('sums the rollup after a fold, every window and group equal to the records', async () => {
    const folded = await folds.fold();
    expect(folded).not.toBeNull();
    expect(folded!.to).toBeGreaterThan(folded!.from);
    expect(folded!.rows).toBeGreaterThan(0);
    const { rows } = await sql.query<{ requests: string }>(`SELECT sum(requests)::text AS requests FROM usage_hourly WHERE tenant_id = $1::uuid`, [tenantId]);
    expect(rows[0]!.requests).toBe('400');
    await expectExact(windows());
    // The written_xid ranges filled so far are summarized, and a second call finds none left.
    expect(await folds.summarizeNewRanges()).toBeGreaterThanOrEqual(0);
    expect(await folds.summarizeNewRanges()).toBe(0);
    await expectExact(windows());
  });

  it('counts charges written after their record was folded, and records written after the fold, before and after the next fold', async () => {
    await charge('a-', 'refund', 5);
    await addRecords('b-', 120, 48);
    await charge('b-', 'reserve', -70);
    await expectExact(windows());
    await folds.fold();
    await expectExact(windows());
    await charge('b-', 'settle', 20);
    await folds.fold();
    await expectExact(windows());
    const { rows } = await sql.query<{ requests: string }>(`SELECT sum(requests)::text AS requests FROM usage_hourly WHERE tenant_id = $1::uuid`, [tenantId]);
    expect(rows[0]!.requests).toBe('520');
  });

  it('folds a record whose transaction was still open during a fold exactly once, after it commits', async () => {
    const writer = await pool.connect();
    try {
      await writer.query('BEGIN');
      await addRecords('late-', 30, 12, writer);
      await charge('late-', 'reserve', -50, writer);
      await addRecords('c-', 10, 12);
      await folds.fold();
      await expectExact(windows());
      await writer.query('COMMIT');
    } finally {
      writer.release();
    }
    await expectExact(windows());
    await folds.fold();
    await folds.fold();
    await expectExact(windows());
    const { rows } = await sql.query<{ requests: string }>(`SELECT sum(requests)::text AS requests FROM usage_hourly WHERE tenant_id = $1::uuid`, [tenantId]);
    expect(rows[0]!.requests).toBe('560');
  });

  it('lets one replica fold at a time: a second fold while one holds the lock skips its turn', async () => {
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock(hashtextextended('usage_fold', 0))`);
      expect(await folds.fold()).toBeNull();
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    expect(await folds.fold()).not.toBeNull();
  });
});
