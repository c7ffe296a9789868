/** `gatewayctl budgets set|show|clear|list`: spend limits on a key or a project, per UTC period or in total. */
import { BudgetListRequest, BudgetSetRequest, BudgetShowRequest, displayMoney, type BudgetView } from '@gateway/contracts';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

interface TargetOptions {
  key?: string;
  project?: string;
  tenant?: string;
}

const TARGET_FLAGS = { key: '--key', tenant: '--tenant', project: '--project' };

function withTarget(command: Command): Command {
  return command
    .option('--key <id>', 'the key whose budget it is')
    .option('--project <name>', 'the project whose budget it is (with --tenant)')
    .option('--tenant <slug>', "the project's tenant");
}

function targetOf(options: TargetOptions): TargetOptions {
  return { key: options.key, tenant: options.tenant, project: options.project };
}

function whose(budget: BudgetView): string {
  return budget.scope === 'key'
    ? `key ${budget.key} (project ${budget.project}, tenant ${budget.tenant})`
    : `project ${budget.project} of tenant ${budget.tenant}`;
}

function describe(budget: BudgetView): string {
  const period = budget.period === 'total' ? 'in total' : `per ${budget.period} (UTC)`;
  return [
    `budget of ${whose(budget)}: ${displayMoney(budget.amount)} ${period}, ${budget.mode}`,
    `  used ${displayMoney(budget.used)}, left ${displayMoney(budget.left)}${budget.resetsAt ? `; resets at ${budget.resetsAt}` : '; never resets'}`,
    `  alerts at ${budget.alertAt.map((share) => `${share} %`).join(', ') || 'none'}`,
  ].join('\n');
}

function sharesOf(text: string | undefined): number[] | undefined {
  if (text === undefined) return undefined;
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      if (!/^\d+$/.test(part)) throw CliError.usage(`invalid --alert-at: "${part}" is not a whole percentage`);
      return Number(part);
    });
}

export function registerBudgets(program: Command, io: Io): void {
  const budgets = program.command('budgets').description('spend limits on a key or a project: per day, week or month (UTC), or in total');

  withJson(withTarget(budgets.command('set')))
    .description('set the budget of a key (--key) or a project (--project with --tenant); prints the budget with its use')
    .requiredOption('--amount <decimal>', 'the amount per period, e.g. 25.00 (at most 6 decimals)')
    .requiredOption('--period <period>', 'day, week, month or total')
    .option('--mode <mode>', 'hard (refuse what does not fit) or soft (alerts only)', 'hard')
    .option('--alert-at <percents>', 'shares of the amount that send an alert, comma-separated', '50,80,100')
    .action(async (options: TargetOptions & { amount: string; period: string; mode: string; alertAt?: string }, command: Command) => {
      const body = validate(
        BudgetSetRequest,
        { ...targetOf(options), amount: options.amount, period: options.period, mode: options.mode, alertAt: sharesOf(options.alertAt) },
        { ...TARGET_FLAGS, amount: '--amount', period: '--period', mode: '--mode', alertAt: '--alert-at' },
      );
      const budget = await adminFrom(command).setBudget({ ...body, amount: options.amount });
      emit(io, wantsJson(command), budget, () => describe(budget));
    });

  withJson(withTarget(budgets.command('show')))
    .description('show the budget of a key or a project, with what its current period used and has left')
    .action(async (options: TargetOptions, command: Command) => {
      const target = validate(BudgetShowRequest, targetOf(options), TARGET_FLAGS);
      const budget = await adminFrom(command).showBudget(target);
      emit(io, wantsJson(command), { budget }, () => (budget ? describe(budget) : 'no budget: limited by the balance (and its project) alone'));
    });

  withJson(withTarget(budgets.command('clear')))
    .description('remove the budget of a key or a project')
    .action(async (options: TargetOptions, command: Command) => {
      const target = validate(BudgetShowRequest, targetOf(options), TARGET_FLAGS);
      const reply = await adminFrom(command).clearBudget(target);
      emit(io, wantsJson(command), reply, () => (reply.cleared ? 'budget removed' : 'there was no budget'));
    });

  withJson(budgets.command('list'))
    .description("list every budget of a tenant's keys and projects, with its use")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const { tenant } = validate(BudgetListRequest, { tenant: options.tenant }, { tenant: '--tenant' });
      const list = await adminFrom(command).listBudgets(tenant);
      emit(io, wantsJson(command), { data: list }, () =>
        list.length === 0
          ? `tenant ${tenant} has no budgets`
          : table([
              ['SCOPE', 'KEY', 'PROJECT', 'AMOUNT', 'PERIOD', 'MODE', 'USED', 'LEFT', 'RESETS'],
              ...list.map((b) => [
                b.scope,
                b.key ?? '-',
                b.project,
                displayMoney(b.amount),
                b.period,
                b.mode,
                displayMoney(b.used),
                displayMoney(b.left),
                b.resetsAt ?? 'never',
              ]),
            ]),
      );
    });
}
