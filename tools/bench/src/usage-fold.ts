import type pg from 'pg';

/** The accounts service folds usage this often in the bench stacks, so a bench waits seconds for it. */
export const BENCH_USAGE_FOLD_ENV = { USAGE_FOLD_INTERVAL_MS: '1000' };

/** Waits until the usage fold has reached every row committed before the call; returns the ms waited. */
export async function usageFolded(sql: pg.Client, timeoutMs = 900_000): Promise<number> {
  const started = Date.now();
  const { rows } = await sql.query<{ xid: string }>(`SELECT (pg_current_xact_id()::text)::bigint::text AS xid`);
  const now = BigInt(rows[0]!.xid);
  for (;;) {
    const folded = await sql.query<{ xid: string }>(`SELECT folded_xid::text AS xid FROM usage_fold WHERE id = 1`);
    if (BigInt(folded.rows[0]!.xid) > now) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`the usage fold did not reach the seeded rows within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
