import { BudgetMode, BudgetPeriod, type BudgetRule } from '@gateway/contracts';

/** A budget row as Prisma gives it. */
export interface BudgetRow {
  scope: string;
  keyId: string | null;
  projectId: string | null;
  amountMicros: bigint;
  period: string;
  mode: string;
}

/** A stored budget as requests carry it; `name` names its key or project in refusals. */
export function budgetRuleOf(row: BudgetRow, name: string): BudgetRule {
  const scope = row.scope === 'key' ? 'key' : 'project';
  return {
    scope,
    scopeId: (scope === 'key' ? row.keyId : row.projectId)!,
    name,
    amountMicros: row.amountMicros.toString(),
    period: BudgetPeriod.parse(row.period),
    mode: BudgetMode.parse(row.mode),
  };
}

/** The budgets a key's requests are held against: its own, then its project's. */
export function budgetRulesOf(key: { name: string; budget: BudgetRow | null; project: { name: string; budget: BudgetRow | null } }): BudgetRule[] {
  const rules: BudgetRule[] = [];
  if (key.budget) rules.push(budgetRuleOf(key.budget, key.name));
  if (key.project.budget) rules.push(budgetRuleOf(key.project.budget, key.project.name));
  return rules;
}
