import { PROJECT_RIGHTS, type BudgetSpend, type BudgetView, type ConsoleProject, type ConsoleRole } from '@gateway/contracts';
import type { ConsoleProjectRecord } from './console-projects.repository';

/** A budget's spend alone: what a person without the right to see budgets is shown. */
export function spendOf(budget: BudgetView): BudgetSpend {
  return { period: budget.period, used: budget.used, usedMicros: budget.usedMicros, periodStart: budget.periodStart, resetsAt: budget.resetsAt };
}

/** A tenant's budgets by what they govern: `key:<id>` and `project:<name>`. */
export function budgetsByTarget(budgets: BudgetView[]): Map<string, BudgetView> {
  return new Map(budgets.map((budget) => [budget.scope === 'key' ? `key:${budget.key}` : `project:${budget.project}`, budget]));
}

/**
 * One project as a person with `role` on it sees it: keys, people given project roles, spend, and the
 * budgets themselves only where the role may see budgets.
 */
export function toConsoleProject(project: ConsoleProjectRecord, role: ConsoleRole, budgets: Map<string, BudgetView>): ConsoleProject {
  const rights = [...PROJECT_RIGHTS[role]];
  const showBudget = rights.includes('budgets');
  const budgeted = (budget: BudgetView | undefined) => ({ spend: budget ? spendOf(budget) : null, budget: budget && showBudget ? budget : null });
  return {
    name: project.name,
    role,
    rights,
    ...budgeted(budgets.get(`project:${project.name}`)),
    keys: project.keys.map((key) => ({ id: key.id, name: key.name, masked: key.masked, status: key.status, ...budgeted(budgets.get(`key:${key.id}`)) })),
    members: project.members.map((member) => ({ email: member.consoleUser.email, role: member.role, tenantRole: member.consoleUser.role })),
  };
}
