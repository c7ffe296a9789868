/** `gatewayctl tenants create|show`. */
import { BillingMode, TenantCreateRequest, type TenantView } from '@gateway/contracts';
import { Option, type Command } from 'commander';
import { emit, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

const describe = (t: TenantView) => `tenant ${t.slug} (${t.id}): billing ${t.billing}, plan ${t.plan ?? '-'}, expires ${t.expires ?? 'never'}`;

export function registerTenants(program: Command, io: Io): void {
  const tenants = program.command('tenants').description('create and inspect tenants');

  withJson(tenants.command('create'))
    .description('create a tenant')
    .argument('<slug>', 'unique tenant slug (lowercase letters, digits, ".", "_", "-")')
    .option('--name <name>', 'display name')
    .addOption(new Option('--billing <mode>', 'billing mode').choices(BillingMode.options).default('payg'))
    .option('--plan <name>', 'plan name (billing plan)')
    .option('--expires <iso>', 'subscription expiry, ISO-8601 with offset')
    .action(async (slug: string, options: { name?: string; billing: string; plan?: string; expires?: string }, command: Command) => {
      const body = validate(
        TenantCreateRequest,
        { slug, name: options.name, billing: options.billing, plan: options.plan, expires: options.expires },
        { slug: 'SLUG', name: '--name', billing: '--billing', plan: '--plan', expires: '--expires' },
      );
      const tenant = await adminFrom(command).createTenant(body);
      emit(io, wantsJson(command), tenant, () => `created ${describe(tenant)}`);
    });

  withJson(tenants.command('show'))
    .description('show a tenant')
    .argument('<slug>', 'tenant slug')
    .action(async (slug: string, _options: unknown, command: Command) => {
      const tenant = await adminFrom(command).getTenant(slug);
      emit(io, wantsJson(command), tenant, () => describe(tenant));
    });
}
