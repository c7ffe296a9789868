import { CONSOLE_ROUTES, type ConsoleBudgetRequest, type ConsoleProject, type ConsoleRole } from '@gateway/contracts/console';
import { queryOptions } from '@tanstack/react-query';
import { call } from './http';

/** The tenant console's Projects page: projects with keys, people and budgets; budgets and project roles changed. */

export type ProjectRow = ConsoleProject;
export type ProjectKeyRow = ConsoleProject['keys'][number];

/** Whose budget the editor changes: a project by name or a key by id. */
export type BudgetTarget = { kind: 'project'; project: string; label: string } | { kind: 'key'; id: string; label: string };

export const projectsQuery = queryOptions({ queryKey: ['projects'], queryFn: () => call(CONSOLE_ROUTES.projects) });

export const tenantProjectsQuery = (slug: string) =>
  queryOptions({ queryKey: ['tenant-projects', slug], queryFn: () => call(CONSOLE_ROUTES.tenantProjects, { slug }) });

export const setBudget = (target: BudgetTarget, budget: ConsoleBudgetRequest) =>
  target.kind === 'project'
    ? call(CONSOLE_ROUTES.setProjectBudget, { project: target.project, ...budget })
    : call(CONSOLE_ROUTES.setKeyBudget, { id: target.id, ...budget });

export const clearBudget = (target: BudgetTarget) =>
  target.kind === 'project' ? call(CONSOLE_ROUTES.clearProjectBudget, { project: target.project }) : call(CONSOLE_ROUTES.clearKeyBudget, { id: target.id });

export const grantProjectRole = (project: string, email: string, role: ConsoleRole | null) => call(CONSOLE_ROUTES.grantProjectRole, { project, email, role });
