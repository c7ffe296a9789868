import {
  DEFAULT_PROJECT,
  effectiveProjectRole,
  type BudgetView,
  type ConsoleBudgetClearMessage,
  type ConsoleBudgetSetMessage,
  type ConsoleProject,
  type ConsoleRole,
} from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { BudgetsService } from '../../budgets/budgets.service';
import { ProjectMembersService } from '../../projects/project-members.service';
import { ProjectsService } from '../../projects/projects.service';
import { TenantsService } from '../../tenants/tenants.service';
import { budgetsByTarget, toConsoleProject } from './console-project-view';
import { ConsoleProjectsRepository, type ConsoleProjectRecord } from './console-projects.repository';

/**
 * The console's Projects page: each project with its keys, people and budgets as the signed-in person's
 * role there allows, and budget changes refused unless that role holds `budget-set`.
 */
@Injectable()
export class ConsoleProjectsService {
  constructor(
    @Inject(ConsoleProjectsRepository) private readonly projects: ConsoleProjectsRepository,
    @Inject(ProjectsService) private readonly projectNames: ProjectsService,
    @Inject(ProjectMembersService) private readonly members: ProjectMembersService,
    @Inject(BudgetsService) private readonly budgets: BudgetsService,
    @Inject(TenantsService) private readonly tenants: TenantsService,
  ) {}

  /** Every project of the tenant as `userId` sees it. */
  async list(tenantSlug: string, userId: string): Promise<ConsoleProject[]> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const tenantRole = await this.members.tenantRoleOf(tenant.id, userId);
    return this.view(tenant, (project) => effectiveProjectRole(tenantRole, project.members.find((m) => m.consoleUser.id === userId)?.role ?? null));
  }

  /** Every project of the tenant as its owner sees it (the operator console). */
  async ofTenant(tenantSlug: string): Promise<ConsoleProject[]> {
    return this.view(await this.tenants.requireBySlug(tenantSlug), () => 'owner');
  }

  async setBudget(message: ConsoleBudgetSetMessage): Promise<BudgetView> {
    const { tenant, userId, key, project, ...values } = message;
    await this.requireBudgetRight(tenant, userId, { key, project });
    return this.budgets.set({ ...values, ...(key !== undefined ? { key } : { tenant, project }), owner: tenant });
  }

  async clearBudget(message: ConsoleBudgetClearMessage): Promise<boolean> {
    const { tenant, userId, key, project } = message;
    await this.requireBudgetRight(tenant, userId, { key, project });
    return this.budgets.clear({ ...(key !== undefined ? { key } : { tenant, project }), owner: tenant });
  }

  private async requireBudgetRight(tenantSlug: string, userId: string, target: { key?: string; project?: string }): Promise<void> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const project = await this.members.projectOf(tenant.id, tenant.slug, target);
    await this.members.require(tenant.id, userId, project, 'budget-set');
  }

  private async view(tenant: { id: string; slug: string }, roleOn: (project: ConsoleProjectRecord) => ConsoleRole): Promise<ConsoleProject[]> {
    // `default` exists from the first look, as the projects list makes it.
    await this.projectNames.idFor(tenant.id, tenant.slug, DEFAULT_PROJECT);
    const [projects, budgets] = await Promise.all([this.projects.listWithKeysAndMembers(tenant.id), this.budgets.list(tenant.slug)]);
    const byTarget = budgetsByTarget(budgets);
    return projects.map((project) => toConsoleProject(project, roleOn(project), byTarget));
  }
}
