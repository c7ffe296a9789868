// Owns projects: a tenant's keys in groups (every tenant has `default`), which project a new key joins, and
// the roles people are given on single projects.
import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { ProjectMembersHandler } from './project-members.handler';
import { ProjectMembersRepository } from './project-members.repository';
import { ProjectMembersService } from './project-members.service';
import { ProjectsHandler } from './projects.handler';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({
  imports: [TenantsModule],
  controllers: [ProjectsHandler, ProjectMembersHandler],
  providers: [ProjectsService, ProjectsRepository, ProjectMembersService, ProjectMembersRepository],
  exports: [ProjectsService, ProjectMembersService],
})
export class ProjectsModule {}
