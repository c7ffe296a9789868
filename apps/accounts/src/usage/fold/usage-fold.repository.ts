import type { SqlPool } from '@gateway/db';
import { SQL_POOL } from '@gateway/platform/infra';
import { Inject, Injectable } from '@nestjs/common';
import { LATENCY_BUCKET_SQL } from '../../console/usage/latency-histogram';

/** One lock for every accounts replica: one fold at a time; the others skip their turn. */
const FOLD_LOCK = `SELECT pg_try_advisory_xact_lock(hashtextextended('usage_fold', 0)) AS locked`;
const FOLDED = `SELECT folded_xid::text AS xid FROM usage_fold WHERE id = 1 FOR UPDATE`;
/** Every transaction below this one has ended: nothing it wrote can still appear. */
const HORIZON = `SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint::text AS xid`;

/**
 * Adds to usage_hourly the records written in [$1, $2), each with what the ledger charged it below $2, and
 * the entries written in [$1, $2) that charge records folded before. A record's entries written later are
 * added by the fold that reaches them, so an hour's charge is exact whatever order the two arrive in.
 */
const FOLD = `
  WITH fresh AS (
    SELECT * FROM usage_records WHERE written_xid >= $1 AND written_xid < $2
  ), fresh_charges AS (
    SELECT l.tenant_id, l.request_id, -sum(l.amount_micros) AS charged
      FROM ledger_entries l JOIN fresh f ON f.request_id = l.request_id AND f.tenant_id = l.tenant_id
     WHERE l.written_xid < $2
     GROUP BY 1, 2
  ), parts AS (
    SELECT f.tenant_id, date_trunc('hour', f.created_at) AS hour, f.kind, f.model_id, f.key_id, count(*) AS requests,
           sum(f.prompt_tokens) AS prompt_tokens, sum(f.completion_tokens) AS completion_tokens, sum(f.cached_tokens) AS cached_tokens,
           sum(f.seconds) AS seconds, sum(f.images) AS images, sum(f.tasks) AS tasks, coalesce(sum(c.charged), 0) AS charged
      FROM fresh f LEFT JOIN fresh_charges c ON c.tenant_id = f.tenant_id AND c.request_id = f.request_id
     GROUP BY 1, 2, 3, 4, 5
    UNION ALL
    SELECT u.tenant_id, date_trunc('hour', u.created_at), u.kind, u.model_id, u.key_id, 0, 0, 0, 0, 0, 0, 0, -sum(l.amount_micros)
      FROM ledger_entries l JOIN usage_records u ON u.request_id = l.request_id AND u.tenant_id = l.tenant_id
     WHERE l.written_xid >= $1 AND l.written_xid < $2 AND l.request_id IS NOT NULL AND u.written_xid < $1
     GROUP BY 1, 2, 3, 4, 5
  )
  INSERT INTO usage_hourly AS d (tenant_id, hour, kind, model_id, key_id, requests, prompt_tokens, completion_tokens,
                                 cached_tokens, seconds, images, tasks, charged_micros)
  SELECT tenant_id, hour, kind, model_id, key_id, sum(requests), sum(prompt_tokens), sum(completion_tokens),
         sum(cached_tokens), sum(seconds), sum(images), sum(tasks), sum(charged)
    FROM parts
   GROUP BY 1, 2, 3, 4, 5
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (tenant_id, hour, kind, model_id, key_id) DO UPDATE SET
    requests = d.requests + EXCLUDED.requests,
    prompt_tokens = d.prompt_tokens + EXCLUDED.prompt_tokens,
    completion_tokens = d.completion_tokens + EXCLUDED.completion_tokens,
    cached_tokens = d.cached_tokens + EXCLUDED.cached_tokens,
    seconds = d.seconds + EXCLUDED.seconds,
    images = d.images + EXCLUDED.images,
    tasks = d.tasks + EXCLUDED.tasks,
    charged_micros = d.charged_micros + EXCLUDED.charged_micros`;

/** The same records' latencies, counted per day and histogram bucket. */
const FOLD_LATENCY = `
  INSERT INTO usage_daily_latency AS d (tenant_id, day, kind, model_id, key_id, bucket, count)
  SELECT u.tenant_id, date_trunc('day', u.created_at), u.kind, u.model_id, u.key_id, ${LATENCY_BUCKET_SQL}, count(*)
    FROM usage_records u
   WHERE u.written_xid >= $1 AND u.written_xid < $2
   GROUP BY 1, 2, 3, 4, 5, 6
   ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (tenant_id, day, kind, model_id, key_id, bucket) DO UPDATE SET count = d.count + EXCLUDED.count`;

/**
 * Summarizes the BRIN ranges written since the last call, so a summary's scan of what is not folded yet
 * reads the newest pages only, whenever autovacuum last ran (an unsummarized range is read whole).
 */
const SUMMARIZE = `SELECT brin_summarize_new_values('usage_records_written_xid_idx'::regclass) + brin_summarize_new_values('ledger_entries_written_xid_idx'::regclass) AS ranges`;

const ADVANCE = `UPDATE usage_fold SET folded_xid = $1, folded_at = now() AT TIME ZONE 'UTC' WHERE id = 1`;

export interface FoldResult {
  /** The watermark before and after: every record and entry of a transaction below `to` is folded. */
  from: bigint;
  to: bigint;
  /** Rollup rows added to or created. */
  rows: number;
}

/** The only writer of usage_hourly, usage_daily_latency and usage_fold. */
@Injectable()
export class UsageFoldRepository {
  constructor(@Inject(SQL_POOL) private readonly pool: SqlPool) {}

  /** Folds everything written since the last fold; null when another replica is folding. */
  async fold(): Promise<FoldResult | null> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows: locked } = await client.query<{ locked: boolean }>(FOLD_LOCK);
      if (!locked[0]?.locked) {
        await client.query('ROLLBACK');
        return null;
      }
      const from = BigInt((await client.query<{ xid: string }>(FOLDED)).rows[0]!.xid);
      const to = BigInt((await client.query<{ xid: string }>(HORIZON)).rows[0]!.xid);
      if (to <= from) {
        await client.query('ROLLBACK');
        return { from, to: from, rows: 0 };
      }
      const folded = await client.query(FOLD, [from.toString(), to.toString()]);
      await client.query(FOLD_LATENCY, [from.toString(), to.toString()]);
      await client.query(ADVANCE, [to.toString()]);
      await client.query('COMMIT');
      return { from, to, rows: folded.rowCount ?? 0 };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Summarizes the written_xid BRIN ranges filled since the last call; returns how many. */
  async summarizeNewRanges(): Promise<number> {
    return Number((await this.pool.query<{ ranges: number }>(SUMMARIZE)).rows[0]?.ranges ?? 0);
  }
}
