/** `gatewayctl usage`: requests, tokens and what the ledger charged, grouped by model, key or day. */
import { UsageSummaryRequest } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

export function registerUsage(program: Command, io: Io): void {
  withJson(program.command('usage'))
    .description("a tenant's usage and charges")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--since <iso>', 'only requests at or after this time, ISO-8601 with offset')
    .option('--by <group>', 'group by model, key or day', 'model')
    .action(async (options: { tenant: string; since?: string; by: string }, command: Command) => {
      const query = validate(UsageSummaryRequest, { tenant: options.tenant, since: options.since, by: options.by }, { tenant: '--tenant', since: '--since', by: '--by' });
      const summary = await adminFrom(command).usage(query);
      emit(io, wantsJson(command), summary, () => {
        if (summary.rows.length === 0) return `no usage for ${summary.tenant}${summary.since ? ` since ${summary.since}` : ''}`;
        const header = [summary.by, 'requests', 'prompt_tokens', 'completion_tokens', 'cost'];
        return table([header, ...summary.rows.map((r) => [r.group, String(r.requests), String(r.promptTokens), String(r.completionTokens), r.cost])]);
      });
    });
}
