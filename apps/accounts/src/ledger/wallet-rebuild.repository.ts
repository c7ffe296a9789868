import type { LostHold } from '@gateway/billing';
import { SQL_POOL } from '@gateway/platform/infra';
import type { SqlPool } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

/** Balance holds the ledger shows reserved and not yet settled or released, reserved within the window. */
const OPEN_HOLDS = `
  SELECT r.tenant_id::text AS tenant_id, r.request_id, (-r.amount_micros)::text AS amount, r.budgets
    FROM ledger_entries r
   WHERE r.kind = 'reserve' AND r.pool = 'balance' AND r.request_id IS NOT NULL
     AND r.created_at > now() - make_interval(secs => $1::double precision)
     AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.request_id = r.request_id AND e.kind IN ('settle', 'release'))`;

const ENDED = `SELECT DISTINCT request_id FROM ledger_entries WHERE request_id = ANY($1::text[]) AND kind IN ('settle', 'release')`;

/** What a wallet rebuild reads of the books: stored balances and the holds the ledger has open or ended. */
@Injectable()
export class WalletRebuildRepository {
  constructor(@Inject(SQL_POOL) private readonly pool: SqlPool) {}

  async storedBalances(): Promise<Map<string, bigint>> {
    const { rows } = await this.pool.query<{ tenant_id: string; micros: string }>('SELECT tenant_id::text, micros::text FROM balances');
    return new Map(rows.map((row) => [row.tenant_id, BigInt(row.micros)]));
  }

  async openHolds(windowSeconds: number): Promise<LostHold[]> {
    const { rows } = await this.pool.query<{ tenant_id: string; request_id: string; amount: string; budgets: string[] }>(OPEN_HOLDS, [windowSeconds]);
    return rows.map((row) => ({ requestId: row.request_id, tenantId: row.tenant_id, amount: BigInt(row.amount), budgets: row.budgets }));
  }

  /** Of these request ids, those whose hold the ledger has ended. */
  async ended(requestIds: readonly string[]): Promise<Set<string>> {
    if (requestIds.length === 0) return new Set();
    const { rows } = await this.pool.query<{ request_id: string }>(ENDED, [requestIds]);
    return new Set(rows.map((row) => row.request_id));
  }
}
