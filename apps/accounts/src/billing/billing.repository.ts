import { PrismaClient, Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { usageSummarySql, type UsageGroup } from './usage-summary.sql';
import type { UsageRow } from './usage-row';

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

/** A usage record as the admin API lists it. */
export interface UsageRequestRecord extends UsageRow {
  cost_micros: bigint;
}

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
   * Requests, units and what the ledger charged them, grouped: the rollup and the records it has not
   * reached, read in one snapshot so a fold committing meanwhile is counted once.
   */
  usageSummary(tenantId: string, since: Date | null, by: UsageGroup, until: Date | null = null): Promise<UsageGroupRow[]> {
    return this.prisma.$transaction(
      async (tx) => {
        const [fold] = await tx.$queryRaw<{ folded_xid: bigint }[]>`SELECT folded_xid FROM usage_fold WHERE id = 1`;
        return tx.$queryRaw<UsageGroupRow[]>(usageSummarySql(tenantId, since, until, by, fold?.folded_xid ?? 0n));
      },
      { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: 60_000 },
    );
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
