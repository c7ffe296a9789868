/** `gatewayctl projects create|list`: a tenant's keys in groups; a key joins one with `keys create --project`. */
import { ProjectCreateRequest, ProjectListRequest } from '@gateway/contracts';
import type { Command } from 'commander';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

export function registerProjects(program: Command, io: Io): void {
  const projects = program.command('projects').description("create and list a tenant's projects (groups of keys, summed apart in usage)");

  withJson(projects.command('create'))
    .description('create a project for a tenant; prints {name, tenant, keys, created_at}')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--name <name>', 'project name: lowercase letters, digits, ".", "_" or "-"')
    .action(async (options: { tenant: string; name: string }, command: Command) => {
      const body = validate(ProjectCreateRequest, { tenant: options.tenant, name: options.name }, { tenant: '--tenant', name: '--name' });
      const project = await adminFrom(command).createProject(body);
      emit(io, wantsJson(command), project, () => `created project ${project.name} for tenant ${project.tenant}`);
    });

  withJson(projects.command('list'))
    .description("list a tenant's projects, default included, with how many keys each holds")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const { tenant } = validate(ProjectListRequest, { tenant: options.tenant }, { tenant: '--tenant' });
      const list = await adminFrom(command).listProjects(tenant);
      emit(io, wantsJson(command), { data: list }, () => table([['NAME', 'KEYS', 'CREATED'], ...list.map((p) => [p.name, String(p.keys), p.created_at])]));
    });
}
