import { Prisma } from '@gateway/db';
import { summaryWindow, type TimeRange } from '../usage/fold/summary-window';
import { modelGroupSql } from '../usage/usage-model-name';
import { projectGroupSql } from '../usage/usage-project-name';

export type UsageGroup = 'model' | 'key' | 'project' | 'day' | 'kind';

/** What a summary groups by, in the hourly rollup (h) and in the records (u). */
const ROLLUP_GROUP = {
  model: Prisma.raw(modelGroupSql('h.model_id')),
  key: Prisma.sql`h.key_id::text`,
  project: Prisma.raw(projectGroupSql('h.key_id')),
  day: Prisma.sql`to_char(h.hour, 'YYYY-MM-DD')`,
  kind: Prisma.sql`h.kind`,
} as const;
const RECORD_GROUP = {
  model: Prisma.raw(modelGroupSql('u.model_id')),
  key: Prisma.sql`u.key_id::text`,
  project: Prisma.raw(projectGroupSql('u.key_id')),
  day: Prisma.sql`to_char(u.created_at, 'YYYY-MM-DD')`,
  kind: Prisma.sql`u.kind`,
} as const;

function within(column: Prisma.Sql, range: TimeRange): Prisma.Sql {
  const bounds = [Prisma.sql`true`];
  if (range.from) bounds.push(Prisma.sql`${column} >= ${range.from}::timestamp`);
  if (range.to) bounds.push(Prisma.sql`${column} < ${range.to}::timestamp`);
  return Prisma.join(bounds, ' AND ');
}

/**
 * A tenant's usage of a window, grouped: whole hours from usage_hourly plus what the fold has not reached
 * (records written since, and entries written since that charge records folded before), the part hours at
 * the window's ends from the records. `folded` is the fold's watermark read in the same snapshot.
 */
export function usageSummarySql(tenantId: string, since: Date | null, until: Date | null, by: UsageGroup, folded: bigint): Prisma.Sql {
  const window = summaryWindow(since, until);
  const tenant = Prisma.sql`${tenantId}::uuid`;
  const watermark = Prisma.sql`${folded.toString()}::bigint`;
  const record = Prisma.sql`${RECORD_GROUP[by]} AS g, 1 AS requests, u.prompt_tokens, u.completion_tokens, u.cached_tokens, u.seconds, u.images, u.tasks,
    coalesce((SELECT -sum(l.amount_micros) FROM ledger_entries l WHERE l.tenant_id = u.tenant_id AND l.request_id = u.request_id), 0) AS charged`;
  const parts: Prisma.Sql[] = window.edges.map(
    (edge) => Prisma.sql`SELECT ${record} FROM usage_records u WHERE u.tenant_id = ${tenant} AND ${within(Prisma.sql`u.created_at`, edge)}`,
  );
  if (window.whole) {
    const whole = window.whole;
    parts.push(
      Prisma.sql`SELECT ${ROLLUP_GROUP[by]} AS g, h.requests, h.prompt_tokens, h.completion_tokens, h.cached_tokens, h.seconds, h.images, h.tasks, h.charged_micros
                   FROM usage_hourly h WHERE h.tenant_id = ${tenant} AND ${within(Prisma.sql`h.hour`, whole)}`,
      Prisma.sql`SELECT ${record} FROM usage_records u
                  WHERE u.tenant_id = ${tenant} AND u.written_xid >= ${watermark} AND ${within(Prisma.sql`u.created_at`, whole)}`,
      Prisma.sql`SELECT ${RECORD_GROUP[by]}, 0, 0, 0, 0, 0, 0, 0, -l.amount_micros
                   FROM ledger_entries l JOIN usage_records u ON u.request_id = l.request_id AND u.tenant_id = l.tenant_id
                  WHERE l.tenant_id = ${tenant} AND l.request_id IS NOT NULL AND l.written_xid >= ${watermark}
                    AND u.written_xid < ${watermark} AND ${within(Prisma.sql`u.created_at`, whole)}`,
    );
  }
  return Prisma.sql`
    SELECT g AS "group", sum(requests)::bigint AS requests,
           coalesce(sum(prompt_tokens), 0)::bigint AS prompt_tokens,
           coalesce(sum(completion_tokens), 0)::bigint AS completion_tokens,
           coalesce(sum(cached_tokens), 0)::bigint AS cached_tokens,
           coalesce(sum(seconds), 0)::float8 AS seconds,
           coalesce(sum(images), 0)::bigint AS images,
           coalesce(sum(tasks), 0)::bigint AS tasks,
           coalesce(sum(charged), 0)::bigint AS cost_micros
      FROM (${Prisma.join(parts, ' UNION ALL ')}) p (g, requests, prompt_tokens, completion_tokens, cached_tokens, seconds, images, tasks, charged)
     GROUP BY 1 ORDER BY 1`;
}
