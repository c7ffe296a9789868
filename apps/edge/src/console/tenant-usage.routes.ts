import {
  ConsoleOverview,
  ConsoleUsageQuery,
  ConsoleUsageRecordDetail,
  ConsoleUsageRecordPage,
  ConsoleUsageRecordsQuery,
  ConsoleUsageSummary,
  parseOrThrow,
  SUBJECTS,
  type ConsoleUsageRecordsMessage,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { csvLine } from './csv-lines';
import type { SignedIn } from './console-guard';
import type { ConsoleRoutes } from './console-routes';

const TIMEOUT = { timeoutMs: 15_000 };
/** An export walks the records this many at a time, each page a keyset step. */
const EXPORT_PAGE = 500;

const tenantOf = ({ session }: SignedIn) => ({ tenant: session.tenantSlug!, tenantId: session.tenantId! });

const ExportQuery = ConsoleUsageRecordsQuery.omit({ cursor: true, limit: true }).extend({
  of: z.enum(['records', 'summary']).default('records'),
  by: ConsoleUsageQuery.shape.by,
});

const RECORD_HEADER = [
  'request_id',
  'at',
  'kind',
  'model',
  'key_id',
  'route',
  'prompt_tokens',
  'completion_tokens',
  'latency_ms',
  'outcome',
  'status',
  'cost',
  'subject_id',
  'client_request_id',
];
const SUMMARY_HEADER = ['requests', 'prompt_tokens', 'completion_tokens', 'seconds', 'images', 'tasks', 'cost', 'latency_p50_ms', 'latency_p99_ms'];

/**
 * The tenant console's usage: the overview, the grouped summary (the aggregation `gatewayctl usage`
 * runs, in accounts), records page by page, one record, and a CSV export streamed page by page.
 */
export function registerTenantUsage(routes: ConsoleRoutes, bus: NatsBus): void {
  routes.signedIn('GET', '/console/api/overview', 'console.overview', 'read', async (_request, _reply, call) =>
    bus.request(SUBJECTS.accounts.console.usage.overview, { tenant: tenantOf(call).tenant }, ConsoleOverview, TIMEOUT),
  );

  routes.signedIn('GET', '/console/api/usage/summary', 'console.usage-summary', 'read', async (request, _reply, call) => {
    const query = parseOrThrow(ConsoleUsageQuery, request.query ?? {});
    return bus.request(SUBJECTS.accounts.console.usage.summary, { ...query, ...tenantOf(call) }, ConsoleUsageSummary, TIMEOUT);
  });

  routes.signedIn('GET', '/console/api/usage/records', 'console.usage-records', 'read', async (request, _reply, call) => {
    const query = parseOrThrow(ConsoleUsageRecordsQuery, request.query ?? {});
    return bus.request(SUBJECTS.accounts.console.usage.records, { ...query, tenantId: tenantOf(call).tenantId }, ConsoleUsageRecordPage, TIMEOUT);
  });

  routes.signedIn('GET', '/console/api/usage/records/:requestId', 'console.usage-record', 'read', async (request, _reply, call) => {
    const { requestId } = parseOrThrow(z.object({ requestId: z.string().min(1).max(128) }), request.params);
    return bus.request(SUBJECTS.accounts.console.usage.record, { tenant: tenantOf(call).tenant, requestId }, ConsoleUsageRecordDetail, TIMEOUT);
  });

  routes.signedIn('GET', '/console/api/usage/export.csv', 'console.usage-export', 'read', async (request, reply, call) => {
    const { of, by, ...filters } = parseOrThrow(ExportQuery, request.query ?? {});
    const who = tenantOf(call);
    const lines =
      of === 'summary'
        ? summaryLines(bus, { ...who, by, since: filters.since, until: filters.until })
        : recordLines(bus, { ...filters, tenantId: who.tenantId, limit: EXPORT_PAGE });
    const stamp = new Date().toISOString().slice(0, 10);
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="usage-${of}-${who.tenant}-${stamp}.csv"`);
    return Readable.from(lines);
  });
}

async function* summaryLines(bus: NatsBus, query: { tenant: string; tenantId: string; by: 'model' | 'key' | 'day' | 'kind'; since?: string; until?: string }) {
  const summary = await bus.request(SUBJECTS.accounts.console.usage.summary, query, ConsoleUsageSummary, TIMEOUT);
  yield csvLine([summary.by, ...SUMMARY_HEADER]);
  for (const r of summary.rows) {
    yield csvLine([
      r.group,
      r.requests,
      r.promptTokens,
      r.completionTokens,
      r.seconds ?? 0,
      r.images ?? 0,
      r.tasks ?? 0,
      r.cost,
      r.latencyP50Ms,
      r.latencyP99Ms,
    ]);
  }
}

async function* recordLines(bus: NatsBus, query: ConsoleUsageRecordsMessage) {
  yield csvLine(RECORD_HEADER);
  let cursor: string | undefined;
  do {
    const page = await bus.request(SUBJECTS.accounts.console.usage.records, { ...query, cursor }, ConsoleUsageRecordPage, TIMEOUT);
    yield page.data
      .map((r) =>
        csvLine([
          r.requestId,
          r.at,
          r.kind,
          r.modelId,
          r.keyId,
          r.route,
          r.promptTokens,
          r.completionTokens,
          r.latencyMs,
          r.result ?? r.outcome,
          r.status,
          r.cost,
          r.subjectId,
          r.clientRequestId,
        ]),
      )
      .join('');
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
