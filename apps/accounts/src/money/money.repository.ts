import type { SqlPool } from '@gateway/db';
import { SQL_POOL } from '@gateway/platform/infra';
import { Inject, Injectable } from '@nestjs/common';

export interface LedgerViewRecord {
  id: string;
  created_at: Date;
  kind: string;
  pool: string;
  amount_micros: string;
  request_id: string | null;
  note: string | null;
  balance_micros: string | null;
  usage_kind: string | null;
  subject_id: string | null;
}

export interface TenantBooks {
  tenant_id: string;
  slug: string;
  ledger_micros: string;
  stored_micros: string;
}

export interface StoredBudget {
  tenant_id: string;
  scope: string;
  key_id: string | null;
  project_id: string | null;
  period: string;
  /** The key's or the project's name, for findings. */
  name: string;
}

const BUDGETS = `
  SELECT b.tenant_id, b.scope, b.key_id, b.project_id, b.period, coalesce(k.name, p.name) AS name
    FROM budgets b
    LEFT JOIN api_keys k ON k.id = b.key_id
    LEFT JOIN projects p ON p.id = b.project_id
   WHERE $1::uuid IS NULL OR b.tenant_id = $1::uuid`;

/** The GIN index on budgets finds the entries; each counter's charge is what its entries took from the pool. */
const BUDGET_CHARGES = `
  SELECT counter, (-sum(l.amount_micros))::text AS charged
    FROM ledger_entries l, unnest(l.budgets) AS counter
   WHERE l.budgets && $1::text[] AND counter = ANY($1::text[])
   GROUP BY counter`;

export interface ChargeFinding {
  tenant_id: string;
  request_id: string;
  entry_ids: string[];
  charged: string;
  usage_cost: string | null;
  has_usage: boolean;
}

/** A page of one tenant's ledger with the running balance; the window sums the balance pool from the tenant's first entry. */
const LEDGER_PAGE = `
  WITH entries AS (
    SELECT l.id, l.created_at, l.kind, l.pool, l.amount_micros, l.request_id, l.note,
           CASE WHEN l.pool = 'balance'
                THEN sum(CASE WHEN l.pool = 'balance' THEN l.amount_micros ELSE 0 END) OVER (ORDER BY l.id) END AS balance_micros
      FROM ledger_entries l
     WHERE l.tenant_id = $1::uuid
  )
  SELECT e.id::text, e.created_at, e.kind, e.pool, e.amount_micros::text, e.request_id, e.note, e.balance_micros::text,
         u.kind AS usage_kind, u.subject_id
    FROM entries e
    LEFT JOIN usage_records u ON u.request_id = e.request_id AND u.tenant_id = $1::uuid
   WHERE ($2::bigint IS NULL OR e.id > $2::bigint)
     AND ($3::timestamp IS NULL OR e.created_at >= $3::timestamp)
     AND ($4::text[] IS NULL OR e.kind = ANY($4::text[]))
   ORDER BY e.id
   LIMIT $5`;

/** Per tenant: Σ of its balance-pool ledger entries and its stored balance (one aggregate over the ledger). */
const BOOKS = `
  SELECT t.id::text AS tenant_id, t.slug, coalesce(l.micros, 0)::text AS ledger_micros, coalesce(b.micros, 0)::text AS stored_micros
    FROM tenants t
    LEFT JOIN (SELECT tenant_id, sum(amount_micros) AS micros FROM ledger_entries
                WHERE pool = 'balance' AND ($1::uuid IS NULL OR tenant_id = $1::uuid) GROUP BY tenant_id) l ON l.tenant_id = t.id
    LEFT JOIN balances b ON b.tenant_id = t.id
   WHERE ($1::uuid IS NULL OR t.id = $1::uuid)
   ORDER BY t.slug`;

/**
 * Charges and usage records that do not match: a request whose hold ended (or that drew from a lease)
 * and was charged with no usage record, and a record that says what its settlement charged when the
 * ledger says otherwise. Requests with a hold still open are the hold check's, not this one's. Each
 * request's sums come from the ledger's (tenant, request) index alone; the ids of a request's entries
 * are gathered only for the few that are found.
 */
const CHARGES = `
  WITH charges AS (
    SELECT tenant_id, request_id, -sum(amount_micros) AS charged,
           count(*) FILTER (WHERE kind <> 'reserve') AS ends, bool_or(kind = 'reserve') AS held
      FROM ledger_entries
     WHERE request_id IS NOT NULL AND kind <> 'plan_grant' AND ($1::uuid IS NULL OR tenant_id = $1::uuid)
     GROUP BY tenant_id, request_id
  ), found AS (
    SELECT c.tenant_id, c.request_id, c.charged, u.cost_micros AS usage_cost, u.request_id IS NOT NULL AS has_usage
      FROM charges c
      LEFT JOIN usage_records u ON u.request_id = c.request_id
     WHERE (c.ends > 0 OR NOT c.held)
       AND ((u.request_id IS NULL AND c.charged <> 0) OR (u.cost_micros IS NOT NULL AND u.cost_micros <> c.charged))
    UNION ALL
    SELECT u.tenant_id, u.request_id, 0, u.cost_micros, true
      FROM usage_records u
     WHERE u.cost_micros > 0 AND ($1::uuid IS NULL OR u.tenant_id = $1::uuid)
       AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.request_id = u.request_id)
     LIMIT 10000
  )
  SELECT f.tenant_id::text, f.request_id, f.charged::text, f.usage_cost::text, f.has_usage,
         coalesce((SELECT array_agg(l.id::text ORDER BY l.id) FROM ledger_entries l
                    WHERE l.request_id = f.request_id AND l.kind <> 'plan_grant'), ARRAY[]::text[]) AS entry_ids
    FROM found f`;

/** Entries no request explains and no operator top-up is: written by hand, or by a writer that names no request. */
const UNEXPLAINED = `
  SELECT tenant_id::text, id::text, kind, amount_micros::text
    FROM ledger_entries
   WHERE request_id IS NULL AND kind <> 'topup' AND ($1::uuid IS NULL OR tenant_id = $1::uuid)
   ORDER BY id
   LIMIT 10000`;

/** A plan tenant's quota terms, as its current window is computed from them. */
export interface PlanQuota {
  tenant_id: string;
  quota_micros: string | null;
  quota_requests: number | null;
  period_seconds: number;
  starts_at: Date;
}

/** What a tenant's usage records in a window drew from its quota: micro-units charged, requests served. */
export interface WindowUsage {
  tenant_id: string;
  records: string;
  charged_micros: string;
  served: string;
}

/** Subscriptions that draw on a period quota (a payg tenant's subscription never does). */
const PLAN_QUOTAS = `
  SELECT s.tenant_id::text, s.quota_micros::text, s.quota_requests, s.period_seconds, s.created_at AS starts_at
    FROM subscriptions s JOIN tenants t ON t.id = s.tenant_id
   WHERE t.billing <> 'payg' AND s.period_seconds IS NOT NULL AND (s.quota_micros IS NOT NULL OR s.quota_requests IS NOT NULL)
     AND ($1::uuid IS NULL OR s.tenant_id = $1::uuid)`;

/**
 * Per window (a tenant and its current quota period): the records made in it, what the quota pool
 * charged them (their entries but the period's grant), and how many were served, which a request
 * quota charges one each (a chat request cut short by its client is served; a cancelled task is not).
 */
const WINDOW_USAGE = `
  SELECT w.tenant_id::text, count(u.request_id)::text AS records, coalesce(-sum(q.amount), 0)::text AS charged_micros,
         count(u.request_id) FILTER (WHERE u.outcome IN ('ok', 'succeeded', 'reply_lost')
                                        OR (u.outcome = 'cancelled' AND u.kind NOT IN ('media_task', 'music_task', 'images')))::text AS served
    FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) AS w(tenant_id, starts, ends)
    LEFT JOIN usage_records u
      ON u.tenant_id = w.tenant_id AND u.created_at >= (w.starts AT TIME ZONE 'UTC') AND u.created_at < (w.ends AT TIME ZONE 'UTC')
    LEFT JOIN LATERAL (SELECT sum(l.amount_micros) AS amount FROM ledger_entries l
                        WHERE l.tenant_id = u.tenant_id AND l.request_id = u.request_id AND l.pool = 'quota' AND l.kind <> 'plan_grant') q ON true
   GROUP BY w.tenant_id`;

export interface UnexplainedEntry {
  tenant_id: string;
  id: string;
  kind: string;
  amount_micros: string;
}

/** Reads the books for the ledger view and reconciliation: aggregates by index, never a query per row. */
@Injectable()
export class MoneyRepository {
  constructor(@Inject(SQL_POOL) private readonly pool: SqlPool) {}

  async ledgerPage(tenantId: string, query: { cursor?: string; since?: Date; kinds?: string[]; limit: number }): Promise<LedgerViewRecord[]> {
    const result = await this.pool.query<LedgerViewRecord>(LEDGER_PAGE, [
      tenantId,
      query.cursor ?? null,
      query.since ?? null,
      query.kinds ?? null,
      query.limit,
    ]);
    return result.rows;
  }

  async books(tenantId: string | null): Promise<TenantBooks[]> {
    return this.scan<TenantBooks>(BOOKS, [tenantId]);
  }

  async unexplained(tenantId: string | null): Promise<UnexplainedEntry[]> {
    return (await this.pool.query<UnexplainedEntry>(UNEXPLAINED, [tenantId])).rows;
  }

  /** Every budget of one tenant (or of all), with what its current counter id is made of. */
  async budgets(tenantId: string | null): Promise<StoredBudget[]> {
    return (await this.pool.query<StoredBudget>(BUDGETS, [tenantId])).rows;
  }

  /** What the ledger charged each budget counter: the negated sum of the entries that name it (holds still open count as held). */
  async budgetCharges(counterIds: readonly string[]): Promise<Map<string, bigint>> {
    const charges = new Map<string, bigint>();
    if (counterIds.length === 0) return charges;
    const { rows } = await this.pool.query<{ counter: string; charged: string }>(BUDGET_CHARGES, [counterIds]);
    for (const row of rows) charges.set(row.counter, BigInt(row.charged));
    return charges;
  }

  async planQuotas(tenantId: string | null): Promise<PlanQuota[]> {
    return (await this.pool.query<PlanQuota>(PLAN_QUOTAS, [tenantId])).rows;
  }

  async windowUsage(windows: ReadonlyArray<{ tenantId: string; from: Date; to: Date }>): Promise<WindowUsage[]> {
    if (windows.length === 0) return [];
    const result = await this.pool.query<WindowUsage>(WINDOW_USAGE, [
      windows.map((w) => w.tenantId),
      windows.map((w) => w.from.toISOString()),
      windows.map((w) => w.to.toISOString()),
    ]);
    return result.rows;
  }

  async chargeFindings(tenantId: string | null): Promise<ChargeFinding[]> {
    return this.scan<ChargeFinding>(CHARGES, [tenantId]);
  }

  /**
   * A read over every tenant's books: one read-only transaction without JIT compilation (which costs
   * seconds for these plans and saves nothing on them) and with room to hash a million requests in memory.
   */
  private async scan<T extends object>(text: string, values: unknown[]): Promise<T[]> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN READ ONLY; SET LOCAL jit = off; SET LOCAL work_mem = '64MB'");
      const result = await client.query<T>(text, values);
      await client.query('COMMIT');
      return result.rows;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
