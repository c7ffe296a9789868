import { z } from 'zod';
import { UsageGroupBy, UsagePlanWindow, UsageRequestRow, UsageSummaryRow } from '../billing/billing.schema';
import { MicrosString } from '../money';
import { UsageKind } from '../usage/usage-kind';
import { InputTime, isPrintable, printableText } from '../inputs/input-text.schema';

/** Shapes of the tenant console's usage pages: the overview, grouped usage with latency, and records paged by keyset. */

const Iso = InputTime;

export const ConsoleUsageGroupBy = UsageGroupBy;

/** What the page asks: since and until as ISO times (until exclusive), the grouping. */
export const ConsoleUsageQuery = z.object({ since: Iso.optional(), until: Iso.optional(), by: UsageGroupBy.default('day') }).strict();
export type ConsoleUsageQuery = z.input<typeof ConsoleUsageQuery>;
export const ConsoleUsageMessage = ConsoleUsageQuery.extend({ tenant: z.string().min(1), tenantId: z.uuid() });
export type ConsoleUsageMessage = z.infer<typeof ConsoleUsageMessage>;

/** One group's usage, as `gatewayctl usage` reports it, with the latency the gateway measured. */
export const ConsoleUsageRow = UsageSummaryRow.extend({
  latencyP50Ms: z.number().nullable(),
  latencyP99Ms: z.number().nullable(),
});
export type ConsoleUsageRow = z.infer<typeof ConsoleUsageRow>;
export const ConsoleUsageSummary = z.object({
  by: UsageGroupBy,
  since: z.string().nullable(),
  until: z.string().nullable(),
  rows: z.array(ConsoleUsageRow),
  totalCostMicros: MicrosString,
  totalCost: z.string(),
});
export type ConsoleUsageSummary = z.infer<typeof ConsoleUsageSummary>;

/** The landing page: spend this month, the plan's window, requests and tasks for each of the last days. */
export const ConsoleOverviewMessage = z.object({ tenant: z.string().min(1), days: z.number().int().min(1).max(92).default(30) });
export const ConsoleOverviewDay = z.object({
  day: z.string(),
  requests: z.number().int(),
  tasks: z.number().int(),
  costMicros: MicrosString,
  cost: z.string(),
});
export type ConsoleOverviewDay = z.infer<typeof ConsoleOverviewDay>;
export const ConsoleOverview = z.object({
  monthStart: z.string(),
  monthSpendMicros: MicrosString,
  monthSpend: z.string(),
  monthRequests: z.number().int(),
  plan: z.array(UsagePlanWindow),
  days: z.array(ConsoleOverviewDay),
});
export type ConsoleOverview = z.infer<typeof ConsoleOverview>;

export const CONSOLE_PAGE_LIMIT = 50;

/** Usage records newest first, one page after the cursor (the last row of the previous page). */
export const ConsoleUsageRecordsQuery = z
  .object({
    since: Iso.optional(),
    until: Iso.optional(),
    model: z.string().trim().min(1).max(128).refine(isPrintable, 'control characters are not allowed').optional(),
    keyId: z.uuid().optional(),
    kind: UsageKind.optional(),
    cursor: printableText(256).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(CONSOLE_PAGE_LIMIT),
  })
  .strict();
export type ConsoleUsageRecordsQuery = z.input<typeof ConsoleUsageRecordsQuery>;
export const ConsoleUsageRecordsMessage = ConsoleUsageRecordsQuery.extend({ tenantId: z.uuid() });
export type ConsoleUsageRecordsMessage = z.infer<typeof ConsoleUsageRecordsMessage>;

/** The CSV export: the records' filters (no paging), or the grouped summary. */
export const ConsoleUsageExportQuery = ConsoleUsageRecordsQuery.omit({ cursor: true, limit: true }).extend({
  of: z.enum(['records', 'summary']).default('records'),
  by: UsageGroupBy.default('day'),
});
export type ConsoleUsageExportQuery = z.input<typeof ConsoleUsageExportQuery>;

export const ConsoleUsageRecord = UsageRequestRow.extend({ latencyMs: z.number().int() });
export type ConsoleUsageRecord = z.infer<typeof ConsoleUsageRecord>;
export const ConsoleUsageRecordPage = z.object({ data: z.array(ConsoleUsageRecord), nextCursor: z.string().nullable() });
export type ConsoleUsageRecordPage = z.infer<typeof ConsoleUsageRecordPage>;

/** One record, and every record of the task, batch or run it belongs to (its other charges). */
export const ConsoleUsageRecordPath = z.object({ requestId: printableText(128).min(1) }).strict();
export const ConsoleUsageRecordMessage = z.object({ tenant: z.string().min(1), requestId: z.string().min(1).max(128) });
export const ConsoleUsageRecordDetail = z.object({ record: UsageRequestRow, related: z.array(UsageRequestRow) });
export type ConsoleUsageRecordDetail = z.infer<typeof ConsoleUsageRecordDetail>;
