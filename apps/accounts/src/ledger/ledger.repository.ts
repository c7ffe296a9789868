import type { LedgerEvent } from '@gateway/billing';
import { SQL_POOL } from '@gateway/platform/infra';
import { pgTextFields, type SqlPool } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const APPEND = `
  WITH batch AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
      AS b(tenant, kind, pool, amount, rid, note, budgets, position)
    WHERE EXISTS (SELECT 1 FROM tenants t WHERE t.id = b.tenant::uuid)
  ), appended AS (
    INSERT INTO ledger_entries (tenant_id, kind, pool, amount_micros, request_id, note, budgets)
    SELECT tenant::uuid, kind, pool, amount, rid, note, coalesce(string_to_array(nullif(budgets, ''), ','), '{}') FROM batch ORDER BY position
    ON CONFLICT (request_id, kind) DO NOTHING
    RETURNING tenant_id, pool, amount_micros
  ), moved AS (
    INSERT INTO balances (tenant_id, micros, updated_at)
    SELECT tenant_id, SUM(amount_micros)::bigint, now() FROM appended WHERE pool = 'balance' GROUP BY tenant_id
    ON CONFLICT (tenant_id) DO UPDATE SET micros = balances.micros + EXCLUDED.micros, updated_at = now()
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM appended)::bigint AS appended, (SELECT count(*) FROM moved) AS moved`;

/** The only writer of wallet events into ledger_entries and balances. */
@Injectable()
export class LedgerRepository {
  constructor(@Inject(SQL_POOL) private readonly pool: SqlPool) {}

  /**
   * Appends a batch of events and moves each tenant's cached balance by what was actually appended, in
   * one statement: an event seen twice (same request and kind) is skipped and moves nothing, and one
   * batch touches each balance row once, however many requests it carries. A prepared statement on the
   * shared pool: it runs for every usage batch.
   */
  async append(all: LedgerEvent[]): Promise<number> {
    // Only tenant ids shaped as ids reach the ::uuid cast (one stray event must not fail its batch forever).
    const events = all.filter((e) => UUID.test(e.tenant)).map(pgTextFields);
    if (events.length === 0) return 0;
    const tenants = events.map((e) => e.tenant);
    const kinds = events.map((e) => e.kind);
    const pools = events.map((e) => e.pool);
    const amounts = events.map((e) => e.amount);
    const requests = events.map((e) => e.rid);
    const notes = events.map((e) => e.note || null);
    const budgets = events.map((e) => e.budgets ?? '');
    const result = await this.pool.query<{ appended: string }>({
      name: 'ledger-append',
      text: APPEND,
      values: [tenants, kinds, pools, amounts, requests, notes, budgets],
    });
    return Number(result.rows[0]?.appended ?? 0);
  }
}
