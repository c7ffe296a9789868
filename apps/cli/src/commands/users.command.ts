/** `gatewayctl users invite|list|sessions|oidc`: people of a tenant's console, their sessions and single sign-on. */
import { ConsoleInviteRequest, ConsoleRole, OidcConfigureRequest, SessionListRequest, SessionRevokeRequest, type ConsoleInviteView } from '@gateway/contracts';
import { Option, type Command } from 'commander';
import { CliError } from '../cli-error';
import { emit, table, type Io } from '../output/output';
import { adminFrom, validate, wantsJson, withJson } from './command-context';

/** The link with another origin, for when the admin API cannot know where tenants reach the console. */
function linkAt(invite: ConsoleInviteView, consoleUrl: string | undefined): string {
  if (consoleUrl === undefined) return invite.link;
  return `${consoleUrl.replace(/\/+$/, '')}/console/set-password#token=${invite.token}`;
}

function parseHours(text: string): number {
  const match = /^(\d+)\s*([hd]?)$/.exec(text.trim());
  if (!match) throw CliError.usage(`invalid --expires-in: "${text}" is not a number of hours (72 or 72h) or days (3d)`);
  return Number(match[1]) * (match[2] === 'd' ? 24 : 1);
}

export function registerUsers(program: Command, io: Io): void {
  const users = program.command('users').description("people of a tenant's console: invites, sessions, single sign-on");

  withJson(users.command('invite'))
    .description('invite a person to a tenant console; prints a one-time link that expires')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--email <email>', "the person's email address")
    .addOption(
      new Option('--role <role>', 'owner: everything; developer: keys and webhooks; viewer: read only').choices(ConsoleRole.options).makeOptionMandatory(),
    )
    .option('--expires-in <hours>', 'how long the link works: hours (72, 72h) or days (3d)', '72')
    .option('--console-url <url>', 'the origin tenants reach the console on, when the edge does not know it (PUBLIC_BASE_URL)')
    .action(async (options: { tenant: string; email: string; role: string; expiresIn: string; consoleUrl?: string }, command: Command) => {
      const body = validate(
        ConsoleInviteRequest,
        { tenant: options.tenant, email: options.email, role: options.role, ttlHours: parseHours(options.expiresIn) },
        { tenant: '--tenant', email: '--email', role: '--role', ttlHours: '--expires-in' },
      );
      const invite = await adminFrom(command).inviteConsoleUser(body);
      const link = linkAt(invite, options.consoleUrl);
      emit(io, wantsJson(command), { ...invite, link }, () =>
        [
          `invited ${invite.email} to tenant ${invite.tenant} as ${invite.role}`,
          `  link:    ${link}`,
          `  expires: ${invite.expiresAt}`,
          'Send the link to the person: it works once, and it is not shown again.',
        ].join('\n'),
      );
    });

  withJson(users.command('list'))
    .description("list a tenant's console users")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const list = await adminFrom(command).consoleUsers(options.tenant);
      emit(io, wantsJson(command), list, () =>
        list.data.length === 0
          ? `tenant ${options.tenant} has no console users`
          : table([
              ['EMAIL', 'ROLE', 'PASSWORD', 'SSO', 'LOCKED UNTIL', 'CREATED'],
              ...list.data.map((u) => [u.email, u.role, u.hasPassword ? 'set' : 'invited', u.sso ? 'yes' : 'no', u.lockedUntil ?? '-', u.createdAt]),
            ]),
      );
    });

  const sessions = users.command('sessions').description('live console sessions');

  withJson(sessions.command('list'))
    .description('list live console sessions, of a tenant or one person in it')
    .option('--tenant <slug>', 'tenant slug')
    .option('--email <email>', 'one person (needs --tenant)')
    .action(async (options: { tenant?: string; email?: string }, command: Command) => {
      const query = validate(SessionListRequest, { tenant: options.tenant, email: options.email }, { tenant: '--tenant', email: '--email' });
      const list = await adminFrom(command).consoleSessions(query);
      emit(io, wantsJson(command), list, () =>
        list.data.length === 0
          ? 'no live console sessions'
          : table([
              ['ID', 'KIND', 'TENANT', 'EMAIL', 'IP', 'SINCE', 'UNTIL'],
              ...list.data.map((s) => [s.id, s.kind, s.tenant ?? '-', s.email ?? '-', s.ip ?? '-', s.createdAt, s.expiresAt]),
            ]),
      );
    });

  withJson(sessions.command('revoke'))
    .description('end console sessions at once on every edge: one by --id, or every one of a --tenant (or one --email in it)')
    .option('--id <id>', 'session id')
    .option('--tenant <slug>', 'tenant slug')
    .option('--email <email>', 'one person (needs --tenant)')
    .action(async (options: { id?: string; tenant?: string; email?: string }, command: Command) => {
      const body = validate(
        SessionRevokeRequest,
        { id: options.id, tenant: options.tenant, email: options.email },
        { id: '--id', tenant: '--tenant', email: '--email' },
      );
      const result = await adminFrom(command).revokeConsoleSessions(body as { id: string } | { tenant: string; email?: string });
      emit(io, wantsJson(command), result, () => `revoked ${result.revoked} console session${result.revoked === 1 ? '' : 's'}`);
    });

  const oidc = users.command('oidc').description("a tenant's single sign-on through OpenID Connect");

  withJson(oidc.command('set'))
    .description('set the OpenID provider people of a tenant sign in with')
    .requiredOption('--tenant <slug>', 'tenant slug')
    .requiredOption('--issuer <url>', "the provider's issuer URL (its discovery document lives under it)")
    .requiredOption('--client-id <id>', 'the client registered at the provider')
    .addOption(new Option('--client-secret <secret>', "the client's secret").env('CONSOLE_OIDC_CLIENT_SECRET').makeOptionMandatory())
    .addOption(
      new Option('--default-role <role>', 'role for people the provider vouches for who have no account yet (default: invite only)').choices(
        ConsoleRole.options,
      ),
    )
    .action(async (options: { tenant: string; issuer: string; clientId: string; clientSecret: string; defaultRole?: string }, command: Command) => {
      const body = validate(
        OidcConfigureRequest,
        {
          tenant: options.tenant,
          issuer: options.issuer,
          clientId: options.clientId,
          clientSecret: options.clientSecret,
          defaultRole: options.defaultRole ?? null,
        },
        { tenant: '--tenant', issuer: '--issuer', clientId: '--client-id', clientSecret: '--client-secret', defaultRole: '--default-role' },
      );
      const view = await adminFrom(command).setConsoleOidc(body);
      emit(
        io,
        wantsJson(command),
        view,
        () => `tenant ${view.tenant} signs in through ${view.issuer} (client ${view.clientId}; new people: ${view.defaultRole ?? 'invite only'})`,
      );
    });

  withJson(oidc.command('show'))
    .description("show a tenant's single sign-on (never its secret)")
    .requiredOption('--tenant <slug>', 'tenant slug')
    .action(async (options: { tenant: string }, command: Command) => {
      const view = await adminFrom(command).consoleOidc(options.tenant);
      emit(
        io,
        wantsJson(command),
        view,
        () => `tenant ${view.tenant} signs in through ${view.issuer} (client ${view.clientId}; new people: ${view.defaultRole ?? 'invite only'})`,
      );
    });
}
