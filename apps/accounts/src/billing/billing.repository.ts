import { PrismaClient, Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { usageWindowOf } from './usage-window';

export interface UsageGroupRow {
  group: string;
  requests: bigint;
  prompt_tokens: bigint;
  completion_tokens: bigint;
  cached_tokens: bigint;
  seconds: number;
  images: bigint;
  tasks: bigint;
  cost_micros: bigint;
}

export interface UsageRequestRecord {
  request_id: string;
  client_request_id: string | null;
  key_id: string;
  model_id: string;
  route: string;
  prompt_tokens: number;
  completion_tokens: number;
  outcome: string;
  status: number;
  created_at: Date;
  kind: string;
  subject_id: string | null;
  cost_micros: bigint;
}

/** What a summary groups by, in the hourly rollup and in the records. */
const GROUP_COLUMN = {
  model: { hourly: Prisma.sql`d.model_id`, record: Prisma.sql`u.model_id` },
  key: { hourly: Prisma.sql`d.key_id::text`, record: Prisma.sql`u.key_id::text` },
  day: { hourly: Prisma.sql`to_char(d.hour, 'YYYY-MM-DD')`, record: Prisma.sql`to_char(u.created_at, 'YYYY-MM-DD')` },
  kind: { hourly: Prisma.sql`d.kind`, record: Prisma.sql`u.kind` },
} as const;

/** Reads what billing needs from Postgres: subscriptions, stored balances, usage with its charges. */
@Injectable()
export class BillingRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  tenantWithSubscription(tenantId: string) {
    return this.prisma.tenant.findUnique({ where: { id: tenantId }, include: { subscription: true } });
  }

  async storedBalance(tenantId: string): Promise<bigint> {
    return (await this.prisma.balance.findUnique({ where: { tenantId } }))?.micros ?? 0n;
  }

  setTenantLimits(tenantId: string, limits: Prisma.InputJsonValue | typeof Prisma.DbNull) {
    return this.prisma.tenant.update({ where: { id: tenantId }, data: { limits }, include: { subscription: true } });
  }

  /** A custom subscription's own quota and price overrides (created with the tenant's kind when missing). */
  setSubscriptionTerms(
    tenantId: string,
    kind: 'payg' | 'plan' | 'custom',
    terms: { quotaMicros?: bigint | null; quotaRequests?: number | null; periodSeconds?: number | null; priceOverrides?: Prisma.InputJsonValue },
  ) {
    return this.prisma.subscription.upsert({ where: { tenantId }, create: { tenantId, kind, ...terms }, update: terms });
  }

  /**
   * Requests, units and what the ledger charged them, grouped: whole hours from the hourly rollup (a few
   * rows an hour, whatever the traffic), the part hours at the window's edges from the records, each
   * charged minus the sum of its ledger entries.
   */
  usageSummary(tenantId: string, since: Date | null, by: keyof typeof GROUP_COLUMN, until: Date | null = null): Promise<UsageGroupRow[]> {
    const group = GROUP_COLUMN[by];
    const { hours, edges } = usageWindowOf(since, until);
    const parts: Prisma.Sql[] = [];
    if (hours) {
      parts.push(Prisma.sql`
        SELECT ${group.hourly} AS g, d.requests, d.prompt_tokens, d.completion_tokens, d.cached_tokens, d.seconds, d.images, d.tasks, d.charged_micros AS charged
          FROM usage_hourly d
         WHERE d.tenant_id = ${tenantId}::uuid
           AND (${hours.fromHour}::timestamp IS NULL OR d.hour >= ${hours.fromHour}::timestamp)
           AND (${hours.toHour}::timestamp IS NULL OR d.hour < ${hours.toHour}::timestamp)`);
    }
    for (const edge of edges) {
      parts.push(Prisma.sql`
        SELECT ${group.record} AS g, 1::bigint, u.prompt_tokens, u.completion_tokens, u.cached_tokens, u.seconds, u.images, u.tasks,
               coalesce((SELECT -sum(l.amount_micros) FROM ledger_entries l WHERE l.tenant_id = u.tenant_id AND l.request_id = u.request_id), 0)
          FROM usage_records u
         WHERE u.tenant_id = ${tenantId}::uuid AND u.created_at >= ${edge.from}::timestamp AND u.created_at < ${edge.to}::timestamp`);
    }
    if (parts.length === 0) return Promise.resolve([]);
    return this.prisma.$queryRaw<UsageGroupRow[]>`
      SELECT r.g AS "group", sum(r.requests)::bigint AS requests,
             coalesce(sum(r.prompt_tokens), 0)::bigint AS prompt_tokens,
             coalesce(sum(r.completion_tokens), 0)::bigint AS completion_tokens,
             coalesce(sum(r.cached_tokens), 0)::bigint AS cached_tokens,
             coalesce(sum(r.seconds), 0)::float8 AS seconds,
             coalesce(sum(r.images), 0)::bigint AS images,
             coalesce(sum(r.tasks), 0)::bigint AS tasks,
             coalesce(sum(r.charged), 0)::bigint AS cost_micros
        FROM (${Prisma.join(parts, ' UNION ALL ')}) AS r (g, requests, prompt_tokens, completion_tokens, cached_tokens, seconds, images, tasks, charged)
       GROUP BY 1 HAVING sum(r.requests) > 0 ORDER BY 1`;
  }

  /** The catalog's own prices of these models (no subscription's overrides). */
  catalogPrices(modelIds: string[]) {
    return this.prisma.model.findMany({
      where: { id: { in: modelIds } },
      select: {
        id: true,
        inputMicrosPerMTok: true,
        outputMicrosPerMTok: true,
        perImageMicros: true,
        perSecondMicros: true,
        perTaskMicros: true,
        cachedInputMicrosPerMTok: true,
        cacheWriteMicrosPerMTok: true,
      },
    });
  }

  /**
   * A tenant's usage rows by the client's id or the server's, newest first, each with what the ledger
   * charged it; a subject id finds what belongs to a task, batch or run, or what a client's id names.
   */
  usageRequests(tenantId: string, by: { clientRequestId?: string; requestId?: string; subjectId?: string }, limit: number): Promise<UsageRequestRecord[]> {
    return this.prisma.$queryRaw<UsageRequestRecord[]>`
      SELECT u.request_id, u.client_request_id, u.key_id::text AS key_id, u.model_id, u.route, u.prompt_tokens, u.completion_tokens,
             u.outcome, u.status, u.created_at, u.kind, u.subject_id,
             coalesce((SELECT -sum(l.amount_micros) FROM ledger_entries l WHERE l.tenant_id = u.tenant_id AND l.request_id = u.request_id), 0)::bigint AS cost_micros
        FROM usage_records u
       WHERE u.tenant_id = ${tenantId}::uuid
         AND (${by.clientRequestId ?? null}::text IS NULL OR u.client_request_id = ${by.clientRequestId ?? null}::text)
         AND (${by.requestId ?? null}::text IS NULL OR u.request_id = ${by.requestId ?? null}::text)
         AND (${by.subjectId ?? null}::text IS NULL OR u.subject_id = ${by.subjectId ?? null}::text OR u.client_request_id = ${by.subjectId ?? null}::text)
       ORDER BY u.created_at DESC
       LIMIT ${limit}`;
  }
}
