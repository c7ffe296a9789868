import { Prisma, PrismaClient } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';

/** An alert to record: one per (subject, type). */
export interface AlertRecord {
  tenantId: string;
  type: string;
  subjectId: string;
  url: string | null;
  data: Record<string, unknown>;
}

const budgetNames = {
  key: { select: { id: true, name: true, project: { select: { name: true } } } },
  project: { select: { name: true } },
  tenant: { select: { slug: true } },
} as const;

/** Endpoints, thresholds and fired alerts, and what evaluating them reads of budgets and plans. */
@Injectable()
export class AlertsRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  endpoint(tenantId: string) {
    return this.prisma.tenantWebhookEndpoint.findUnique({ where: { tenantId } });
  }

  endpoints(tenantIds: readonly string[]) {
    return this.prisma.tenantWebhookEndpoint.findMany({ where: { tenantId: { in: [...tenantIds] } } });
  }

  saveEndpoint(tenantId: string, url: string, events: string[]) {
    return this.prisma.tenantWebhookEndpoint.upsert({ where: { tenantId }, create: { tenantId, url, events }, update: { url, events } });
  }

  settings(tenantId: string) {
    return this.prisma.tenantAlertSettings.findUnique({ where: { tenantId } });
  }

  settingsOf(tenantIds: readonly string[]) {
    return this.prisma.tenantAlertSettings.findMany({ where: { tenantId: { in: [...tenantIds] } }, include: { tenant: { select: { slug: true } } } });
  }

  /** Saves the given thresholds; a new balance threshold starts a new arming (it may fire at once). */
  saveSettings(tenantId: string, values: { balanceBelowMicros?: bigint | null; quotaBelow?: number | null }) {
    const rearm = values.balanceBelowMicros !== undefined ? { balanceEpoch: { increment: 1 } } : {};
    return this.prisma.tenantAlertSettings.upsert({ where: { tenantId }, create: { tenantId, ...values }, update: { ...values, ...rearm } });
  }

  /** Starts the next arming of balance.low, unless another evaluation already did. */
  async rearmBalance(tenantId: string, arming: number): Promise<void> {
    await this.prisma.tenantAlertSettings.updateMany({ where: { tenantId, balanceEpoch: arming }, data: { balanceEpoch: { increment: 1 } } });
  }

  /** What the ledger charged each budget counter (entries naming it; requests still running count as held). */
  async budgetCharges(counterIds: readonly string[]): Promise<Map<string, bigint>> {
    const charges = new Map<string, bigint>();
    if (counterIds.length === 0) return charges;
    const rows = await this.prisma.$queryRaw<Array<{ counter: string; charged: bigint }>>`
      SELECT counter, -sum(l.amount_micros)::bigint AS charged
        FROM ledger_entries l, unnest(l.budgets) AS counter
       WHERE l.budgets && ${counterIds}::text[] AND counter = ANY(${counterIds}::text[])
       GROUP BY counter`;
    for (const row of rows) charges.set(row.counter, BigInt(row.charged));
    return charges;
  }

  budgetsOf(keyIds: readonly string[], projectIds: readonly string[]) {
    return this.prisma.budget.findMany({
      where: { OR: [{ keyId: { in: [...keyIds] } }, { projectId: { in: [...projectIds] } }] },
      include: budgetNames,
    });
  }

  /** Plan subscriptions with a period quota, as the billing client counts their windows. */
  planQuotas(tenantIds: readonly string[]) {
    return this.prisma.subscription.findMany({
      where: {
        tenantId: { in: [...tenantIds] },
        tenant: { billing: { not: 'payg' } },
        periodSeconds: { not: null },
        OR: [{ quotaMicros: { not: null } }, { quotaRequests: { not: null } }],
      },
      select: { tenantId: true, quotaMicros: true, quotaRequests: true, periodSeconds: true, createdAt: true, tenant: { select: { slug: true } } },
    });
  }

  /** Of these (subject, type) pairs, the ones already recorded, as `type subject`. */
  async recorded(keys: ReadonlyArray<{ subjectId: string; type: string }>): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.prisma.tenantAlert.findMany({
      where: { subjectId: { in: [...new Set(keys.map((k) => k.subjectId))] } },
      select: { subjectId: true, type: true },
    });
    return new Set(rows.map((row) => `${row.type} ${row.subjectId}`));
  }

  /** Records the alerts not recorded yet; returns the ones this call recorded. */
  record(alerts: readonly AlertRecord[]) {
    return this.prisma.tenantAlert.createManyAndReturn({
      data: alerts.map((a) => ({ ...a, data: a.data as Prisma.InputJsonValue })),
      skipDuplicates: true,
      select: { type: true, subjectId: true },
    });
  }

  listAlerts(tenantId: string, limit: number) {
    return this.prisma.tenantAlert.findMany({ where: { tenantId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit });
  }

  /** The webhook deliveries of these alert subjects (one per subject and type). */
  deliveriesOf(subjectIds: readonly string[]) {
    if (subjectIds.length === 0) return Promise.resolve([]);
    return this.prisma.webhookDelivery.findMany({
      where: { subjectId: { in: [...subjectIds] } },
      select: { id: true, subjectId: true, eventType: true, status: true, attempts: true },
    });
  }
}

export type AlertBudget = Awaited<ReturnType<AlertsRepository['budgetsOf']>>[number];
export type AlertPlanQuota = Awaited<ReturnType<AlertsRepository['planQuotas']>>[number];
