/**
 * `gatewayctl usage`: requests, tokens and what the ledger charged, grouped by model, key or day;
 * `usage requests`: the rows of one client request id (or server id); and `usage dead-letters [replay]`:
 * what the usage and ledger writers could not write, and putting it back.
 */
import { DeadLetterListRequest, DeadLetterReplayRequest, UsageRequestsRequest, UsageSummaryRequest, type DeadLetterList } from '@gateway/contracts';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

export function registerUsage(program: Command, io: Io): void {
  const usage = withJson(program.command('usage'))
    .description("a tenant's usage and charges")
    // Checked in the action rather than by commander, which would demand it of the subcommands too.
    .option('--tenant <slug>', 'tenant slug (required)')
    .option('--since <iso>', 'only requests at or after this time, ISO-8601 with offset')
    .option('--by <group>', 'group by model, key or day', 'model')
    .action(async (options: { tenant?: string; since?: string; by: string }, command: Command) => {
      if (options.tenant === undefined) throw CliError.usage("required option '--tenant <slug>' not specified");
      const query = validate(
        UsageSummaryRequest,
        { tenant: options.tenant, since: options.since, by: options.by },
        { tenant: '--tenant', since: '--since', by: '--by' },
      );
      const summary = await adminFrom(command).usage(query);
      emit(io, wantsJson(command), summary, () => {
        if (summary.rows.length === 0) return `no usage for ${summary.tenant}${summary.since ? ` since ${summary.since}` : ''}`;
        const header = [summary.by, 'requests', 'prompt_tokens', 'completion_tokens', 'cost'];
        return table([header, ...summary.rows.map((r) => [r.group, String(r.requests), String(r.promptTokens), String(r.completionTokens), r.cost])]);
      });
    });
  registerRequests(usage, io);
  registerDeadLetters(usage, io);
}

function registerRequests(usage: Command, io: Io): void {
  withJson(usage.command('requests'))
    .description("a tenant's usage rows by the x-request-id its client sent (or the gateway's request id), newest first")
    .option('--client-request-id <id>', 'the x-request-id the client sent (echoed back as x-client-request-id)')
    .option('--request-id <id>', "the gateway's own request id (the response's x-request-id)")
    .option('--limit <n>', 'at most this many', '50')
    .action(async (options: { clientRequestId?: string; requestId?: string; limit: string }, command: Command) => {
      // --tenant is the parent `usage` command's option (commander reads it wherever it stands).
      const { tenant } = command.optsWithGlobals<{ tenant?: string }>();
      if (tenant === undefined) throw CliError.usage("required option '--tenant <slug>' not specified");
      const query = validate(
        UsageRequestsRequest,
        { tenant, clientRequestId: options.clientRequestId, requestId: options.requestId, limit: options.limit },
        { tenant: '--tenant', clientRequestId: '--client-request-id', requestId: '--request-id', limit: '--limit' },
      );
      const found = await adminFrom(command).usageRequests(query);
      emit(io, wantsJson(command), found, () => {
        if (found.rows.length === 0) return `no usage rows for ${found.tenant} with that id`;
        const header = ['REQUEST_ID', 'CLIENT_REQUEST_ID', 'MODEL', 'ROUTE', 'PROMPT', 'COMPLETION', 'OUTCOME', 'STATUS', 'AT', 'COST'];
        const rows = found.rows.map((r) => [
          r.requestId,
          r.clientRequestId ?? '-',
          r.modelId,
          r.route,
          String(r.promptTokens),
          String(r.completionTokens),
          r.outcome,
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
