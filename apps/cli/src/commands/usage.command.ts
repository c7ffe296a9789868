/**
 * `gatewayctl usage`: requests, tokens, seconds, images, tasks and what the ledger charged, grouped by
 * model, key, day or kind; `usage requests`: the rows of one client request id, server id, or task,
 * batch or run id; and `usage dead-letters [replay]`:
 * what the usage and ledger writers could not write, and putting it back.
 */
import {
  DeadLetterListRequest,
  DeadLetterReplayRequest,
  formatMicros,
  UsageRequestsRequest,
  UsageSummaryRequest,
  type DeadLetterList,
} from '@gateway/contracts';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { csv, emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

export function registerUsage(program: Command, io: Io): void {
  const usage = withJson(program.command('usage'))
    .description("a tenant's usage and charges")
    // Checked in the action rather than by commander, which would demand it of the subcommands too.
    .option('--tenant <slug>', 'tenant slug (required)')
    .option('--since <iso>', 'only requests at or after this time, ISO-8601 with offset')
    .option('--until <iso>', 'only requests before this time, ISO-8601 with offset')
    .option('--by <group>', 'group by model, key, project, day or kind', 'model')
    .option('--csv', 'print comma-separated values, for spreadsheets')
    .action(async (options: { tenant?: string; since?: string; until?: string; by: string; csv?: boolean }, command: Command) => {
      if (options.tenant === undefined) throw CliError.usage("required option '--tenant <slug>' not specified");
      const query = validate(
        UsageSummaryRequest,
        { tenant: options.tenant, since: options.since, until: options.until, by: options.by },
        { tenant: '--tenant', since: '--since', until: '--until', by: '--by' },
      );
      const summary = await adminFrom(command).usage(query);
      // Seconds, images and tasks only when something metered them: a chat-only tenant reads tokens and cost.
      const units = summary.rows.some((r) => r.seconds || r.images || r.tasks);
      const header = [summary.by, 'requests', 'prompt_tokens', 'completion_tokens', ...(units ? ['seconds', 'images', 'tasks'] : []), 'cost'];
      const rows = summary.rows.map((r) => [
        r.group,
        String(r.requests),
        String(r.promptTokens),
        String(r.completionTokens),
        ...(units ? [String(r.seconds ?? 0), String(r.images ?? 0), String(r.tasks ?? 0)] : []),
        r.cost,
      ]);
      if (options.csv) return io.out(`${csv([header, ...rows])}\n`);
      emit(io, wantsJson(command), summary, () => {
        if (summary.rows.length === 0) return `no usage for ${summary.tenant}${summary.since ? ` since ${summary.since}` : ''}`;
        const total = summary.rows.reduce((sum, r) => sum + BigInt(r.costMicros), 0n);
        const windows = (summary.plan ?? []).map((w) => {
          const amount = (value: string) => (w.unit === 'micros' ? formatMicros(BigInt(value)) : `${value} requests`);
          return (
            `plan window ${w.windowStart} – ${w.windowEnd}: used ${amount(w.used)} of ${amount(w.limit)}, ${amount(w.left)} left; ` +
            `at pay-as-you-go prices it would have cost ${w.wouldCost}`
          );
        });
        return [`${table([header, ...rows])}`, `total cost ${formatMicros(total)}`, ...windows].join('\n');
      });
    });
  registerRequests(usage, io);
  registerDeadLetters(usage, io);
}

function registerRequests(usage: Command, io: Io): void {
  withJson(usage.command('requests'))
    .description("a tenant's usage rows by the x-request-id its client sent, the gateway's request id, or a task, batch or run id, newest first")
    .option('--client-request-id <id>', 'the x-request-id the client sent (echoed back as x-client-request-id)')
    .option('--request-id <id>', "the gateway's own request id (the response's x-request-id)")
    .option('--id <id>', 'a media or music task id, a batch id, an assistants run id or the x-request-id its client sent: every record it names')
    .option('--limit <n>', 'at most this many', '50')
    .action(async (options: { clientRequestId?: string; requestId?: string; id?: string; limit: string }, command: Command) => {
      // --tenant is the parent `usage` command's option (commander reads it wherever it stands).
      const { tenant } = command.optsWithGlobals<{ tenant?: string }>();
      if (tenant === undefined) throw CliError.usage("required option '--tenant <slug>' not specified");
      const query = validate(
        UsageRequestsRequest,
        { tenant, clientRequestId: options.clientRequestId, requestId: options.requestId, subjectId: options.id, limit: options.limit },
        { tenant: '--tenant', clientRequestId: '--client-request-id', requestId: '--request-id', subjectId: '--id', limit: '--limit' },
      );
      const found = await adminFrom(command).usageRequests(query);
      emit(io, wantsJson(command), found, () => {
        if (found.rows.length === 0) return `no usage rows for ${found.tenant} with that id`;
        const header = ['REQUEST_ID', 'KIND', 'OF', 'CLIENT_REQUEST_ID', 'MODEL', 'ROUTE', 'PROMPT', 'COMPLETION', 'OUTCOME', 'STATUS', 'AT', 'COST'];
        const rows = found.rows.map((r) => [
          r.requestId,
          r.kind ?? '-',
          r.subjectId ?? '-',
          r.clientRequestId ?? '-',
          r.modelId,
          r.route,
          String(r.promptTokens),
          String(r.completionTokens),
          r.result ?? r.outcome,
          String(r.status),
          r.at,
          r.cost,
        ]);
        return table([header, ...rows]);
      });
    });
}

function registerDeadLetters(usage: Command, io: Io): void {
  const deadLetters = withJson(usage.command('dead-letters'))
    .description('list records the usage and ledger writers could not write (dead letters), oldest first')
    .option('--consumer <name>', 'only those of one consumer: usage or ledger')
    .option('--limit <n>', 'at most this many', '100')
    .action(async (options: { consumer?: string; limit: string }, command: Command) => {
      const query = validate(DeadLetterListRequest, { consumer: options.consumer, limit: options.limit }, { consumer: '--consumer', limit: '--limit' });
      const list = await adminFrom(command).deadLetters(query);
      emit(io, wantsJson(command), list, () => listing(list));
    });

  withJson(deadLetters.command('replay'))
    .description('put dead letters back on the stream they came from (once their cause is fixed) and remove them')
    .option('--id <id>', 'a dead letter id (repeatable)', (id: string, ids: string[]) => [...ids, id], [] as string[])
    .option('--all', 'every dead letter')
    .action(async (options: { id: string[]; all?: boolean }, command: Command) => {
      const input = { ids: options.id.length ? options.id : undefined, all: options.all };
      const body = validate(DeadLetterReplayRequest, input, { ids: '--id', all: '--all' });
      const reply = await adminFrom(command).replayDeadLetters(body.all ? { all: true } : { ids: body.ids! });
      emit(io, wantsJson(command), reply, () =>
        [
          `replayed ${reply.replayed.length} dead letter(s)${reply.replayed.length ? `: ${reply.replayed.join(', ')}` : ''}`,
          ...(reply.missing.length ? [`not found: ${reply.missing.join(', ')}`] : []),
        ].join('\n'),
      );
    });
}

function listing(list: DeadLetterList): string {
  const counts = `stored: usage ${list.stored.usage}, ledger ${list.stored.ledger}; dead-lettered since the answering accounts replica started: usage ${list.deadLettered.usage}, ledger ${list.deadLettered.ledger}`;
  if (list.data.length === 0) return `no dead letters\n${counts}`;
  const rows = list.data.map((d) => [d.id, d.consumer, d.source, d.at, String(d.deliveries), d.error.slice(0, 80), d.preview.slice(0, 60)]);
  return `${table([['ID', 'CONSUMER', 'SOURCE', 'AT', 'DELIVERIES', 'ERROR', 'PREVIEW'], ...rows])}\n${counts}`;
}
