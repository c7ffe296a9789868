import { z } from 'zod';
import type { ConsoleRole } from './console-people.schema';

/** What a person may do on one project: see its spend, see its budgets, change its budgets. */
export const ProjectRight = z.enum(['spend', 'budgets', 'budget-set']);
export type ProjectRight = z.infer<typeof ProjectRight>;

export const PROJECT_RIGHTS: Record<ConsoleRole, readonly ProjectRight[]> = {
  owner: ['spend', 'budgets', 'budget-set'],
  developer: ['spend', 'budgets'],
  viewer: ['spend'],
};

const RANK: Record<ConsoleRole, number> = { viewer: 0, developer: 1, owner: 2 };

/** A person's role on a project: the higher of their tenant role and the role given them on that project. */
export function effectiveProjectRole(tenantRole: ConsoleRole, projectRole: ConsoleRole | null): ConsoleRole {
  return projectRole !== null && RANK[projectRole] > RANK[tenantRole] ? projectRole : tenantRole;
}

export function projectRoleAllows(role: ConsoleRole, right: ProjectRight): boolean {
  return PROJECT_RIGHTS[role].includes(right);
}
