import { DAY_MS, summaryWindow, type TimeRange } from '../../usage/fold/summary-window';
import { LATENCY_BUCKET_SQL } from './latency-histogram';
import { modelGroupSql } from '../../usage/usage-model-name';
import { projectGroupSql } from '../../usage/usage-project-name';

export type LatencyGroup = 'model' | 'key' | 'project' | 'day' | 'kind';

/** What the latency histogram groups by, in the daily rollup (l) and in the records (u). */
const ROLLUP_GROUP = {
  model: modelGroupSql('l.model_id'),
  key: 'l.key_id::text',
  project: projectGroupSql('l.key_id'),
  day: `to_char(l.day, 'YYYY-MM-DD')`,
  kind: 'l.kind',
} as const;
const RECORD_GROUP = {
  model: modelGroupSql('u.model_id'),
  key: 'u.key_id::text',
  project: projectGroupSql('u.key_id'),
  day: `to_char(u.created_at, 'YYYY-MM-DD')`,
  kind: 'u.kind',
} as const;

export interface SqlQuery {
  text: string;
  values: unknown[];
}

const utc = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');

/**
 * A tenant's latency histogram by group over a window: whole days from usage_daily_latency plus the
 * records the fold has not reached (`folded` is its watermark, read in the same snapshot), the part days at
 * the window's ends from the records.
 */
export function latencySummarySql(tenantId: string, by: LatencyGroup, since: Date | null, until: Date | null, folded: string): SqlQuery {
  const values: unknown[] = [tenantId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const within = (column: string, range: TimeRange) =>
    [
      'true',
      ...(range.from ? [`${column} >= ${param(utc(range.from))}::timestamp`] : []),
      ...(range.to ? [`${column} < ${param(utc(range.to))}::timestamp`] : []),
    ].join(' AND ');
  const window = summaryWindow(since, until, DAY_MS);
  const record = `${RECORD_GROUP[by]}, ${LATENCY_BUCKET_SQL}, 1`;
  const parts = window.edges.map((edge) => `SELECT ${record} FROM usage_records u WHERE u.tenant_id = $1::uuid AND ${within('u.created_at', edge)}`);
  if (window.whole) {
    parts.push(
      `SELECT ${ROLLUP_GROUP[by]}, l.bucket, l.count FROM usage_daily_latency l WHERE l.tenant_id = $1::uuid AND ${within('l.day', window.whole)}`,
      `SELECT ${record} FROM usage_records u
        WHERE u.tenant_id = $1::uuid AND u.written_xid >= ${param(folded)}::bigint AND ${within('u.created_at', window.whole)}`,
    );
  }
  return {
    text: `SELECT g AS "group", bucket, sum(n)::text AS count FROM (${parts.join(' UNION ALL ')}) p (g, bucket, n) GROUP BY 1, 2`,
    values,
  };
}
