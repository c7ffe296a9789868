import type { GatewayConfig } from '@gateway/contracts';
import { record, rejectDuplicates, sameValue } from './config-diff';
import type { ApplyPlan, CurrentTenant, ProjectBudgetRow, ProjectListsRow } from './config-plan.types';

type TenantConfig = GatewayConfig['tenants'][number];
type ProjectConfig = NonNullable<TenantConfig['projects']>[number];

function desiredBudget(project: ProjectConfig): ProjectBudgetRow | null {
  const { budget } = project;
  if (!budget) return null;
  // Stored sorted, as the budgets API stores them, so the order in the file is no change.
  return { amountMicros: budget.amount, period: budget.period, mode: budget.mode, alertAt: [...budget.alertAt].sort((a, b) => a - b) };
}

function budgetLabels(current: ProjectBudgetRow | null, desired: ProjectBudgetRow | null): string[] {
  if (sameValue(current, desired)) return [];
  if (!current) return ['+budget'];
  return desired ? ['~budget'] : ['-budget'];
}

/**
 * Creates each listed project that is missing and sets its model lists and budget to the file's. Projects the
 * file leaves out are kept: keys belong to them. Returns whether any of the tenant's projects changes.
 */
export function planProjects(tenant: TenantConfig, index: number, current: CurrentTenant | undefined, plan: ApplyPlan): boolean {
  if (!tenant.projects) return false;
  rejectDuplicates(
    tenant.projects,
    (p) => p.name,
    (i) => `tenants[${index}].projects[${i}].name`,
    'project',
  );
  let changed = false;
  for (const project of tenant.projects) {
    const lists: ProjectListsRow = { slug: tenant.slug, name: project.name, models: project.models, denyModels: project.denyModels };
    const stored = current?.projects.get(project.name);
    const budget = desiredBudget(project);
    const budgetChange = budgetLabels(stored?.budget ?? null, budget);
    if (budgetChange.length && budget) plan.projectBudgets.set.push({ slug: tenant.slug, name: project.name, ...budget });
    if (budgetChange.length && !budget) plan.projectBudgets.remove.push({ slug: tenant.slug, name: project.name });
    const label = `project ${tenant.slug}/${project.name}`;
    if (!stored) {
      plan.projects.create.push(lists);
      record(plan, label, 'created');
      changed = true;
      continue;
    }
    const listChanges = (['models', 'denyModels'] as const).filter((field) => !sameValue(stored[field], lists[field]));
    if (listChanges.length) plan.projects.update.push(lists);
    record(plan, label, [...listChanges, ...budgetChange]);
    changed ||= listChanges.length > 0 || budgetChange.length > 0;
  }
  return changed;
}
