import { budgetCounterId, budgetWindowOf, BudgetMode, BudgetPeriod, formatMicros, type BudgetView } from '@gateway/contracts';
import type { BudgetRecord } from './budgets.repository';

/** A stored budget's counter id at `nowMs`: the one its requests hold against in the current period. */
export function counterIdOf(budget: Pick<BudgetRecord, 'scope' | 'keyId' | 'projectId' | 'period'>, nowMs: number): string {
  const scope = budget.scope === 'key' ? 'key' : 'project';
  return budgetCounterId(scope, (scope === 'key' ? budget.keyId : budget.projectId)!, budgetWindowOf(BudgetPeriod.parse(budget.period), nowMs));
}

/** What a budget shows: its settings and its current period's use (charged and held), as money. */
export function toBudgetView(budget: BudgetRecord, used: bigint, nowMs: number): BudgetView {
  const window = budgetWindowOf(BudgetPeriod.parse(budget.period), nowMs);
  const left = budget.amountMicros > used ? budget.amountMicros - used : 0n;
  return {
    scope: budget.scope === 'key' ? 'key' : 'project',
    tenant: budget.tenant.slug,
    key: budget.key?.id ?? null,
    project: budget.project?.name ?? budget.key?.project.name ?? '',
    amount: formatMicros(budget.amountMicros),
    amountMicros: budget.amountMicros.toString(),
    period: BudgetPeriod.parse(budget.period),
    mode: BudgetMode.parse(budget.mode),
    alertAt: budget.alertAt,
    used: formatMicros(used),
    usedMicros: used.toString(),
    left: formatMicros(left),
    leftMicros: left.toString(),
    periodStart: window.startMs === null ? null : new Date(window.startMs).toISOString(),
    resetsAt: window.endMs === null ? null : new Date(window.endMs).toISOString(),
  };
}
