import {
  formatMicros,
  GatewayError,
  type ConsoleCharge,
  type ConsoleOverview,
  type ConsoleOverviewDay,
  type ConsoleUsageMessage,
  type ConsoleUsageRecordDetail,
  type ConsoleUsageRecordPage,
  type ConsoleUsageRecordsMessage,
  type ConsoleUsageSummary,
} from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { BillingService } from '../../billing/billing.service';
import { usageRowView } from '../../billing/usage-row';
import { ConsoleUsageRepository } from './console-usage.repository';
import { percentileOf, type LatencyBucket } from './latency-histogram';
import { decodeCursor, encodeCursor } from '@gateway/platform';

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The tenant console's usage: the grouped summary is `gatewayctl usage --by`'s own (BillingService), with
 * the latency percentiles beside it; records page by keyset; one record is `usage requests`'s lookup.
 */
@Injectable()
export class ConsoleUsageService {
  constructor(
    @Inject(BillingService) private readonly billing: BillingService,
    @Inject(ConsoleUsageRepository) private readonly repository: ConsoleUsageRepository,
  ) {}

  /** Spend and requests this month (UTC), the plan's window, and requests, tasks and cost for each of the last `days` days. */
  async overview(tenant: string, days: number, now = new Date()): Promise<ConsoleOverview> {
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS);
    const since = firstDay < monthStart ? firstDay : monthStart;
    const summary = await this.billing.usageSummary(tenant, since.toISOString(), 'day');
    const byDay = new Map(summary.rows.map((row) => [row.group, row]));
    let monthSpend = 0n;
    let monthRequests = 0;
    for (const row of summary.rows) {
      if (row.group < dayOf(monthStart)) continue;
      monthSpend += BigInt(row.costMicros);
      monthRequests += row.requests;
    }
    const series: ConsoleOverviewDay[] = [];
    for (let at = firstDay.getTime(); at <= now.getTime(); at += DAY_MS) {
      const day = dayOf(new Date(at));
      const row = byDay.get(day);
      series.push({ day, requests: row?.requests ?? 0, tasks: row?.tasks ?? 0, costMicros: row?.costMicros ?? '0', cost: row?.cost ?? formatMicros(0n) });
    }
    return {
      monthStart: monthStart.toISOString(),
      monthSpendMicros: monthSpend.toString(),
      monthSpend: formatMicros(monthSpend),
      monthRequests,
      plan: summary.plan ?? [],
      days: series,
    };
  }

  async summary(query: ConsoleUsageMessage): Promise<ConsoleUsageSummary> {
    const [summary, latency] = await Promise.all([
      this.billing.usageSummary(query.tenant, query.since, query.by, query.until),
      this.repository.latency(query.tenantId, query.by, query.since, query.until),
    ]);
    const histograms = new Map<string, LatencyBucket[]>();
    for (const row of latency) histograms.set(row.group, [...(histograms.get(row.group) ?? []), { bucket: row.bucket, count: Number(row.count) }]);
    const total = summary.rows.reduce((sum, row) => sum + BigInt(row.costMicros), 0n);
    return {
      by: summary.by,
      since: summary.since,
      until: summary.until ?? null,
      rows: summary.rows.map((row) => {
        const histogram = histograms.get(row.group) ?? [];
        return { ...row, latencyP50Ms: rounded(percentileOf(histogram, 0.5)), latencyP99Ms: rounded(percentileOf(histogram, 0.99)) };
      }),
      totalCostMicros: total.toString(),
      totalCost: formatMicros(total),
    };
  }

  async records(query: ConsoleUsageRecordsMessage): Promise<ConsoleUsageRecordPage> {
    const rows = await this.repository.records(query, decodeCursor(query.cursor));
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      data: page.map((row) => ({
        ...usageRowView(row),
        latencyMs: row.latency_ms,
        costMicros: row.cost_micros,
        cost: formatMicros(BigInt(row.cost_micros)),
      })),
      nextCursor: rows.length > query.limit && last ? encodeCursor({ at: last.at_text, id: last.request_id }) : null,
    };
  }

  /** One record, found as `gatewayctl usage requests --request-id` finds it, and the others of its task, batch or run. */
  async record(tenant: string, requestId: string): Promise<ConsoleUsageRecordDetail> {
    const [record] = (await this.billing.usageRequests({ tenant, requestId, limit: 1 })).rows;
    if (!record) throw GatewayError.notFound(`No usage record '${requestId.slice(0, 128)}' in your tenant.`, 'requestId');
    const related = record.subjectId
      ? (await this.billing.usageRequests({ tenant, subjectId: record.subjectId, limit: 100 })).rows.filter((row) => row.requestId !== requestId)
      : [];
    return { record, related };
  }

  /** By billing request id, and by subject (a batch's lines summed), keyed by the id asked for. */
  async charges(tenantId: string, requestIds: readonly string[], subjectIds: readonly string[] = []): Promise<ConsoleCharge[]> {
    const [byRequest, bySubject] = await Promise.all([this.repository.charges(tenantId, requestIds), this.repository.chargesBySubject(tenantId, subjectIds)]);
    return [...byRequest, ...bySubject].map((row) => {
      const held = BigInt(row.held);
      const charged = BigInt(row.charged);
      const refunded = held > charged ? held - charged : 0n;
      return {
        requestId: row.request_id,
        heldMicros: held.toString(),
        chargedMicros: charged.toString(),
        refundedMicros: refunded.toString(),
        charged: formatMicros(charged),
        refunded: formatMicros(refunded),
      };
    });
  }
}

function rounded(value: number | null): number | null {
  return value === null ? null : Math.round(value);
}
