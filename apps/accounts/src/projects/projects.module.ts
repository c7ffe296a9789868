// Owns projects: a tenant's keys in groups (every tenant has `default`), and which project a new key joins.
import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { ProjectsHandler } from './projects.handler';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

@Module({ imports: [TenantsModule], controllers: [ProjectsHandler], providers: [ProjectsService, ProjectsRepository], exports: [ProjectsService] })
export class ProjectsModule {}
