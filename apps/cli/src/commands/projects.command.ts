/** `gatewayctl projects create|list|grant`: a tenant's keys in groups, and people's roles on each. */
import { ProjectCreateRequest, ProjectGrantRequest, ProjectListRequest } from '@gateway/contracts';
import type { Command } from 'commander';
import { CliError } from '../cli-error';
import { emit, table, type Io } from '../output/output';
import { adminFrom, commaList, validate, wantsJson, withJson } from './command-context';

const CREATE_FLAGS = { tenant: '--tenant', name: '--name', models: '--models', denyModels: '--deny-models' };

interface ProjectCreateOptions {
  tenant: string;
  name?: string;
  models?: string;
  denyModels?: string;
}

export function registerProjects(program: Command, io: Io): void {
  const projects = program.command('projects').description("create and list a tenant's projects (groups of keys, summed apart in usage)");

  withJson(projects.command('create'))
    .description('create a project for a tenant, optionally limiting the models its keys may use; prints {name, tenant, keys, models, deny_models, created_at}')
    .argument('[name]', 'project name (or --name)')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .option('--name <name>', 'project name: lowercase letters, digits, ".", "_" or "-"')
    .option('--models <ids>', "the only models the project's keys may use: ids or * patterns, comma-separated (default: every model)")
    .option('--deny-models <ids>', "models the project's keys may never use: ids or * patterns, comma-separated")
    .action(async (positional: string | undefined, options: ProjectCreateOptions, command: Command) => {
      if (positional !== undefined && options.name !== undefined && positional !== options.name) {
        throw CliError.usage(`two project names: ${positional} and --name ${options.name}; give one`);
      }
      const body = validate(
        ProjectCreateRequest,
        { tenant: options.tenant, name: positional ?? options.name, models: commaList(options.models), denyModels: commaList(options.denyModels) },
        CREATE_FLAGS,
      );
      const project = await adminFrom(command).createProject(body);
      emit(io, wantsJson(command), project, () => `created project ${project.name} for tenant ${project.tenant}`);
    });

  withJson(projects.command('list'))
    .description("list a tenant's projects, default included, with how many keys each holds and their model lists")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const { tenant } = validate(ProjectListRequest, { tenant: options.tenant }, { tenant: '--tenant' });
      const list = await adminFrom(command).listProjects(tenant);
      emit(io, wantsJson(command), { data: list }, () =>
        table([
          ['NAME', 'KEYS', 'MODELS', 'DENIED', 'CREATED'],
          ...list.map((p) => [p.name, String(p.keys), p.models.join(',') || 'all', p.deny_models.join(',') || 'none', p.created_at]),
        ]),
      );
    });

  withJson(projects.command('grant'))
    .description('give a person of the tenant a role on one project (the higher of it and their tenant role applies there); --role none takes it away')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--project <name>', 'project name')
    .requiredOption('--email <email>', "the person's console email")
    .requiredOption('--role <role>', 'owner, developer, viewer or none')
    .action(async (options: { tenant: string; project: string; email: string; role: string }, command: Command) => {
      const body = validate(
        ProjectGrantRequest,
        { tenant: options.tenant, project: options.project, email: options.email, role: options.role === 'none' ? null : options.role },
        { tenant: '--tenant', project: '--project', email: '--email', role: '--role' },
      );
      const grant = await adminFrom(command).grantProjectRole(body);
      emit(io, wantsJson(command), grant, () =>
        grant.role === null
          ? `${grant.email} has no role of their own on project ${grant.project} of ${grant.tenant}`
          : `${grant.email} is ${grant.role} of project ${grant.project} of ${grant.tenant}`,
      );
    });
}
