import {
  ConsoleCharges,
  ConsoleKeyLimits,
  ConsoleOverview,
  ConsoleUsageRecordDetail,
  ConsoleUsageRecordPage,
  ConsoleUsageSummary,
  KeyCreated,
  SUBJECTS as S,
  TenantView,
} from '@gateway/contracts';
import pg from 'pg';
import { startAccountsHarness, type AccountsHarness } from './accounts.harness';

const C = S.accounts.console;

/**
 * The tenant console's usage subjects on a real Postgres: records paged by keyset (every record once, in
 * order, across equal times), the summary with latency percentiles, one record with the others of its
 * task, charges by hold and by subject, the overview's days, and a key's own limits.
 */
describe('console usage', () => {
  let h: AccountsHarness;
  let sql: pg.Client;
  let tenantId: string;
  let keyId: string;
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: { code?: string; param?: string }) => error,
    );

  beforeAll(async () => {
    h = await startAccountsHarness('accounts_console_usage');
    sql = new pg.Client({ connectionString: h.db.url });
    await sql.connect();
    tenantId = (await h.bus.request(S.accounts.tenants.create, { slug: 'usage-co', name: 'Usage Co' }, TenantView)).id;
    keyId = (await h.bus.request(S.accounts.keys.create, { tenant: 'usage-co', name: 'main' }, KeyCreated)).id;
    // Both models are in the catalog: a model it does not know would be summed as (unknown).
    await sql.query(`INSERT INTO models (id, display_name, capability) VALUES ('gpt-even', 'Even', 'chat'), ('gpt-odd', 'Odd', 'chat') ON CONFLICT DO NOTHING`);
    // 25 records: five share each second (a keyset must not skip or repeat them), latencies 10..250 ms;
    // every fifth belongs to one task; each was held 100 and settled at 40 (charged 60).
    await sql.query(
      `INSERT INTO usage_records (request_id, tenant_id, key_id, model_id, family, route, prompt_tokens, completion_tokens,
                                  latency_ms, outcome, status, created_at, kind, subject_id)
       SELECT 'rec-' || lpad(g::text, 2, '0'), $1::uuid, $2::uuid, CASE WHEN g % 2 = 0 THEN 'gpt-even' ELSE 'gpt-odd' END, 'oaic', 'oaic.chat',
              g, 2 * g, 10 * (g + 1), 'ok', 200, (now() AT TIME ZONE 'UTC') - (g / 5) * interval '1 second',
              CASE WHEN g % 5 = 0 THEN 'media_task' ELSE 'chat' END, CASE WHEN g % 5 = 0 THEN 'task-1' END
         FROM generate_series(0, 24) g`,
      [tenantId, keyId],
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
  }, 60_000);

  afterAll(async () => {
    await sql?.end();
    await h?.stop();
  });

  it('pages records newest first by keyset: every record once, in order, with its cost and latency', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.bus.request(C.usage.records, { tenantId, limit: 4, cursor }, ConsoleUsageRecordPage);
      expect(page.data.length).toBeLessThanOrEqual(4);
      seen.push(...page.data.map((r) => r.requestId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const expected = Array.from({ length: 25 }, (_, g) => g)
      .sort((a, b) => Math.floor(a / 5) - Math.floor(b / 5) || b - a)
      .map((g) => `rec-${String(g).padStart(2, '0')}`);
    expect(seen).toEqual(expected);

    const tasks = await h.bus.request(C.usage.records, { tenantId, kind: 'media_task', model: 'gpt-even' }, ConsoleUsageRecordPage);
    expect(tasks.data.map((r) => r.requestId)).toEqual(['rec-00', 'rec-10', 'rec-20']);
    expect(tasks.data[0]).toMatchObject({ costMicros: '60', cost: '0.000060', latencyMs: 10, subjectId: 'task-1', keyId });
    expect(await failure(h.bus.request(C.usage.records, { tenantId, cursor: 'not-a-cursor' }, ConsoleUsageRecordPage))).toMatchObject({
      code: 'invalid_request',
      param: 'cursor',
    });
  });

  it('sums usage by model with latency p50 and p99 beside what the ledger charged', async () => {
    const summary = await h.bus.request(C.usage.summary, { tenant: 'usage-co', tenantId, by: 'model' }, ConsoleUsageSummary);
    const even = summary.rows.find((r) => r.group === 'gpt-even')!;
    // Even g: 0, 2, …, 24 (13 records), latencies 10, 30, …, 250 ms.
    // The median, 130 ms, is read in the middle of its 128–135 ms bucket.
    expect(even).toMatchObject({ requests: 13, costMicros: String(13 * 60), latencyP50Ms: 132 });
    expect(even.latencyP99Ms).toBeGreaterThan(240);
    expect(summary.totalCostMicros).toBe(String(25 * 60));
  });

  it('finds one record with the others of its task, and the charges by hold and by task', async () => {
    const detail = await h.bus.request(C.usage.record, { tenant: 'usage-co', requestId: 'rec-05' }, ConsoleUsageRecordDetail);
    expect(detail.record).toMatchObject({ requestId: 'rec-05', cost: '0.000060' });
    expect(detail.related.map((r) => r.requestId).sort()).toEqual(['rec-00', 'rec-10', 'rec-15', 'rec-20']);
    expect(await failure(h.bus.request(C.usage.record, { tenant: 'usage-co', requestId: 'nope' }, ConsoleUsageRecordDetail))).toMatchObject({
      code: 'not_found',
    });

    const charges = await h.bus.request(C.charges, { tenantId, requestIds: ['rec-01'], subjectIds: ['task-1'] }, ConsoleCharges);
    expect(charges.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ requestId: 'rec-01', heldMicros: '100', chargedMicros: '60', refundedMicros: '40' }),
        expect.objectContaining({ requestId: 'task-1', heldMicros: '500', chargedMicros: '300', refundedMicros: '200' }),
      ]),
    );
  });

  it('gives the overview this month and each of the last days, today holding the records', async () => {
    const overview = await h.bus.request(C.usage.overview, { tenant: 'usage-co', days: 7 }, ConsoleOverview);
    expect(overview.days).toHaveLength(7);
    const today = overview.days.at(-1)!;
    // The records span the last five seconds: all today, unless this runs across midnight UTC.
    expect(today.requests + overview.days.at(-2)!.requests).toBe(25);
    expect(overview.monthRequests).toBeGreaterThan(0);
    expect(overview.plan).toEqual([]);
  });

  it("sets a key's own limits over its tenant's default, and clears them", async () => {
    const shown = await h.bus.request(C.keyLimits.show, { tenant: 'usage-co', id: keyId }, ConsoleKeyLimits);
    expect(shown).toEqual({ id: keyId, own: null, tenantDefault: null, effective: null, tenant: null });
    const set = await h.bus.request(C.keyLimits.set, { tenant: 'usage-co', id: keyId, limits: { rpm: 60, concurrency: 2 } }, ConsoleKeyLimits);
    expect(set).toMatchObject({ own: { rpm: 60, concurrency: 2 }, effective: { rpm: 60, concurrency: 2 } });
    const cleared = await h.bus.request(C.keyLimits.set, { tenant: 'usage-co', id: keyId, limits: null }, ConsoleKeyLimits);
    expect(cleared.own).toBeNull();
    // Another tenant's key is as absent as a missing one.
    expect(await failure(h.bus.request(C.keyLimits.show, { tenant: 'someone-else', id: keyId }, ConsoleKeyLimits))).toMatchObject({ code: 'not_found' });
  });
});
