import {
  effectiveProjectRole,
  GatewayError,
  projectRoleAllows,
  type ConsoleRole,
  type ProjectGrantRequest,
  type ProjectGrantView,
  type ProjectRight,
} from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { TenantsService } from '../tenants/tenants.service';
import { ProjectMembersRepository } from './project-members.repository';
import { ProjectsService } from './projects.service';

/** A project as a rights check names it. */
export interface ProjectRef {
  id: string;
  name: string;
}

/** Who may do what on a project: roles given per project, and the check every project-scoped change passes. */
@Injectable()
export class ProjectMembersService {
  constructor(
    @Inject(ProjectMembersRepository) private readonly members: ProjectMembersRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(ProjectsService) private readonly projects: ProjectsService,
  ) {}

  /** Gives a person of the tenant a role on one project, or takes it away (`role: null`). */
  async grant(request: ProjectGrantRequest): Promise<ProjectGrantView> {
    const tenant = await this.tenants.requireBySlug(request.tenant);
    const project = await this.requireProject(tenant.id, tenant.slug, request.project);
    const user = await this.members.findUserByEmail(tenant.id, request.email);
    if (!user) throw GatewayError.notFound(`tenant "${tenant.slug}" has no person "${request.email}"`, 'email');
    if (request.role === null) await this.members.remove(project.id, user.id);
    else await this.members.set(project.id, user.id, request.role);
    return { tenant: tenant.slug, project: project.name, email: user.email, role: request.role };
  }

  /** The project a key (by id) or a name names, within one tenant. */
  async projectOf(tenantId: string, tenantSlug: string, target: { key?: string; project?: string }): Promise<ProjectRef> {
    if (target.key !== undefined) {
      const key = await this.members.findProjectOfKey(tenantId, target.key);
      if (!key) throw GatewayError.notFound(`key "${target.key}" does not exist`, 'id');
      return key.project;
    }
    return this.requireProject(tenantId, tenantSlug, target.project ?? '');
  }

  /** A person's role on a project: the higher of their tenant role and their project role. */
  async roleOn(tenantId: string, userId: string, projectId: string): Promise<ConsoleRole> {
    return effectiveProjectRole(await this.tenantRoleOf(tenantId, userId), await this.members.roleOf(projectId, userId));
  }

  /** A person's tenant role; one who left the tenant is refused. */
  async tenantRoleOf(tenantId: string, userId: string): Promise<ConsoleRole> {
    const user = await this.members.findUser(tenantId, userId);
    if (!user) throw new GatewayError('permission_denied', 'You are no longer a person of this tenant: sign in again.');
    return user.role;
  }

  /** Refuses (403) unless the person's role on the project holds `right`. */
  async require(tenantId: string, userId: string, project: ProjectRef, right: ProjectRight): Promise<void> {
    const role = await this.roleOn(tenantId, userId, project.id);
    if (!projectRoleAllows(role, right)) {
      throw new GatewayError('permission_denied', `Your role on project "${project.name}" (${role}) may not do this: ask a tenant or project owner.`);
    }
  }

  /** The tenant's project `name` (`default` is made the first time it is named). */
  private async requireProject(tenantId: string, tenantSlug: string, name: string): Promise<ProjectRef> {
    return { id: await this.projects.idFor(tenantId, tenantSlug, name), name };
  }
}
