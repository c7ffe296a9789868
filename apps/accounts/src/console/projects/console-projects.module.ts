// Owns the tenant console's Projects page: projects with keys, people and budgets, and budget changes
// checked against the person's role on the project.
import { Module } from '@nestjs/common';
import { BudgetsModule } from '../../budgets/budgets.module';
import { ProjectsModule } from '../../projects/projects.module';
import { TenantsModule } from '../../tenants/tenants.module';
import { ConsoleProjectsHandler } from './console-projects.handler';
import { ConsoleProjectsRepository } from './console-projects.repository';
import { ConsoleProjectsService } from './console-projects.service';

@Module({
  imports: [TenantsModule, ProjectsModule, BudgetsModule],
  controllers: [ConsoleProjectsHandler],
  providers: [ConsoleProjectsService, ConsoleProjectsRepository],
})
export class ConsoleProjectsModule {}
