import { RpcHandler } from '@gateway/platform';
import { parseOrThrow, ProjectCreateRequest, ProjectListRequest, RPCS, type ProjectView } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ProjectsService } from './projects.service';

@Controller()
export class ProjectsHandler {
  constructor(@Inject(ProjectsService) private readonly projects: ProjectsService) {}

  @RpcHandler(RPCS.accounts.projects.create)
  create(@Payload() payload: unknown): Promise<ProjectView> {
    const { tenant, name, ...lists } = parseOrThrow(ProjectCreateRequest, payload);
    return this.projects.create(tenant, name, lists);
  }

  @RpcHandler(RPCS.accounts.projects.list)
  list(@Payload() payload: unknown): Promise<ProjectView[]> {
    return this.projects.list(parseOrThrow(ProjectListRequest, payload).tenant);
  }
}
