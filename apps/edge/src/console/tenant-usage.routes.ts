import { RPCS, type ConsoleUsageRecordPage, type ConsoleUsageRecordsMessage, type ConsoleUsageSummary } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import { toGatewayError } from '../errors/error-dialect';
import type { ConsoleRoutes } from './console-routes';
import { csvLine } from './csv-lines';

const TIMEOUT = { timeoutMs: 15_000 };
/** An export walks the records this many at a time, each page a keyset step. */
const EXPORT_PAGE = 500;

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
 * The tenant console's usage export: the grouped summary or the records, as CSV streamed page by page
 * (the overview, the summary, records and one record are relayed).
 */
export function registerTenantUsage(routes: ConsoleRoutes, bus: NatsBus): void {
  routes.handle('usageExport', async ({ of, by, ...filters }, { session }, _request, reply) => {
    const who = { tenant: session.tenantSlug!, tenantId: session.tenantId! };
    // The first answer is read before the header goes out: a refusal is still a JSON error, not a cut file.
    const lines =
      of === 'summary'
        ? summaryLines(await bus.call(RPCS.accounts.console.usage.summary, { ...who, by, since: filters.since, until: filters.until }, TIMEOUT))
        : recordLines(
            bus,
            { ...filters, tenantId: who.tenantId, limit: EXPORT_PAGE },
            await firstPage(bus, { ...filters, tenantId: who.tenantId, limit: EXPORT_PAGE }),
          );
    const stamp = new Date().toISOString().slice(0, 10);
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="usage-${of}-${who.tenant}-${stamp}.csv"`);
    return reply.send(
      Readable.from(
        endingWithMarker(lines, (error) => EXPORT_LOG.error(`usage export for tenant ${who.tenant} failed after its first rows: ${describe(error)}`)),
      ),
    );
  });
}

const EXPORT_LOG = new Logger('ConsoleUsageExport');

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** A failure once rows have gone out ends the file with a marker line (and is logged), never a cut connection. */
async function* endingWithMarker(lines: Iterable<string> | AsyncIterable<string>, log: (error: unknown) => void): AsyncGenerator<string> {
  try {
    yield* lines;
  } catch (error) {
    log(error);
    yield `# export failed: ${toGatewayError(error).message.replace(/[\r\n]+/g, ' ')}\r\n`;
  }
}

function summaryLines(summary: ConsoleUsageSummary): string[] {
  return [
    csvLine([summary.by, ...SUMMARY_HEADER]),
    ...summary.rows.map((r) =>
      csvLine([r.group, r.requests, r.promptTokens, r.completionTokens, r.seconds ?? 0, r.images ?? 0, r.tasks ?? 0, r.cost, r.latencyP50Ms, r.latencyP99Ms]),
    ),
  ];
}

function firstPage(bus: NatsBus, query: ConsoleUsageRecordsMessage): Promise<ConsoleUsageRecordPage> {
  return bus.call(RPCS.accounts.console.usage.records, query, TIMEOUT);
}

function recordRow(r: ConsoleUsageRecordPage['data'][number]): string {
  return csvLine([
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
  ]);
}

async function* recordLines(bus: NatsBus, query: ConsoleUsageRecordsMessage, first: ConsoleUsageRecordPage): AsyncGenerator<string> {
  yield csvLine(RECORD_HEADER);
  let page = first;
  for (;;) {
    yield page.data.map(recordRow).join('');
    if (page.nextCursor === null) return;
    page = await bus.call(RPCS.accounts.console.usage.records, { ...query, cursor: page.nextCursor }, TIMEOUT);
  }
}
