/**
 * `gatewayctl ledger`: a tenant's ledger entries, oldest first, each with the usage record or task it
 * belongs to and the balance after it; `gatewayctl reconcile`: proves one tenant's books or every
 * tenant's, printing one line per tenant that fails and exiting 1 when any does.
 */
import { LEDGER_VIEW_KINDS, LedgerRequest, ReconcileRequest } from '@gateway/contracts';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

export function registerMoney(program: Command, io: Io): void {
  withJson(program.command('ledger'))
    .description("a tenant's ledger entries, oldest first, with what each belongs to and the running balance")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--since <iso>', 'only entries at or after this time, ISO-8601 with offset')
    .option('--kind <kind>', `only entries of one kind: ${LEDGER_VIEW_KINDS.join(', ')}`)
    .option('--limit <n>', 'at most this many', '100')
    .option('--cursor <id>', "the entries after this one (the previous page's next cursor)")
    .action(async (options: { tenant: string; since?: string; kind?: string; limit: string; cursor?: string }, command: Command) => {
      const { tenant, since, kind, limit, cursor } = options;
      const query = validate(
        LedgerRequest,
        { tenant, since, kind, limit, cursor },
        { tenant: '--tenant', since: '--since', kind: '--kind', limit: '--limit', cursor: '--cursor' },
      );
      const page = await adminFrom(command).ledger(query);
      emit(io, wantsJson(command), page, () => {
        if (page.rows.length === 0) return `no ledger entries for ${page.tenant}`;
        const header = ['ID', 'AT', 'KIND', 'POOL', 'AMOUNT', 'BALANCE', 'FOR', 'USAGE', 'OF', 'NOTE'];
        const rows = page.rows.map((r) => [
          r.id,
          r.at,
          r.kind,
          r.pool,
          r.amount,
          r.balance ?? '-',
          r.requestId ?? '-',
          r.usageKind ?? '-',
          r.subjectId ?? '-',
          (r.note ?? '').slice(0, 40),
        ]);
        return `${table([header, ...rows])}${page.nextCursor ? `\nnext page: --cursor ${page.nextCursor}` : ''}`;
      });
    });

  withJson(program.command('reconcile'))
    .description("prove tenants' books: ledger = stored and live balance, one usage record per charge, no hold past its deadline")
    .option('--tenant <slug>', 'one tenant')
    .option('--all', 'every tenant')
    .action(async (options: { tenant?: string; all?: boolean }, command: Command) => {
      const body = validate(ReconcileRequest, { tenant: options.tenant, all: options.all }, { tenant: '--tenant', all: '--all' });
      const report = await adminFrom(command).reconcile(body.tenant ? { tenant: body.tenant } : { all: true });
      const failing = report.tenants.filter((t) => !t.ok);
      emit(io, wantsJson(command), report, () => {
        if (failing.length === 0) return `ok: ${report.checked} tenant(s) reconciled in ${report.tookMs} ms`;
        return failing.map((t) => `${t.tenant}: ${t.findings.map((f) => `${f.check}: ${f.message}`).join('; ')}`).join('\n');
      });
      if (failing.length > 0) throw CliError.failure(`${failing.length} of ${report.checked} tenant(s) do not reconcile`);
    });
}
