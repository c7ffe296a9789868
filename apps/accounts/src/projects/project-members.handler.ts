import { parseOrThrow, ProjectGrantRequest, RPCS, type ProjectGrantView } from '@gateway/contracts';
import { RpcHandler } from '@gateway/platform';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ProjectMembersService } from './project-members.service';

@Controller()
export class ProjectMembersHandler {
  constructor(@Inject(ProjectMembersService) private readonly members: ProjectMembersService) {}

  @RpcHandler(RPCS.accounts.projects.grant)
  grant(@Payload() payload: unknown): Promise<ProjectGrantView> {
    return this.members.grant(parseOrThrow(ProjectGrantRequest, payload));
  }
}
