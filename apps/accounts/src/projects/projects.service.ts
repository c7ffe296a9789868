import { GatewayError, type ProjectView } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { TenantsService } from '../tenants/tenants.service';
import { ProjectsRepository, type ProjectModelLists, type ProjectRecord } from './projects.repository';

function toProjectView(project: ProjectRecord, tenant: string): ProjectView {
  return {
    name: project.name,
    tenant,
    keys: project._count.keys,
    models: project.models,
    deny_models: project.denyModels,
    created_at: project.createdAt.toISOString(),
  };
}

/** A tenant's projects: groups of its keys, whose usage is summed by project. */
@Injectable()
export class ProjectsService {
  constructor(
    @Inject(ProjectsRepository) private readonly projects: ProjectsRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
  ) {}

  async create(tenantSlug: string, name: string, lists: ProjectModelLists = {}): Promise<ProjectView> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const project = await this.projects.create(tenant.id, name, lists);
    if (!project) throw GatewayError.invalid(`tenant "${tenant.slug}" already has a project "${name}"`, 'name');
    return toProjectView(project, tenant.slug);
  }

  async list(tenantSlug: string): Promise<ProjectView[]> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    return (await this.projects.list(tenant.id)).map((project) => toProjectView(project, tenant.slug));
  }

  /** The id of the tenant's project `name` for a new key; a project that does not exist is the client's 404. */
  async idFor(tenantId: string, tenantSlug: string, name: string): Promise<string> {
    const project = await this.projects.findOrDefault(tenantId, name);
    if (!project) throw GatewayError.notFound(`tenant "${tenantSlug}" has no project "${name}"; create it first`, 'project');
    return project.id;
  }
}
