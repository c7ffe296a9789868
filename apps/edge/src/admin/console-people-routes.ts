import {
  ConsoleInviteIssued,
  ConsoleInviteRequest,
  ConsoleSessionList,
  ConsoleUserList,
  ConsoleUsersRequest,
  OidcConfigureRequest,
  OidcConfigView,
  OidcShowRequest,
  parseInput,
  SessionListRequest,
  SessionRevokeReply,
  SessionRevokeRequest,
  SUBJECTS,
  type ConsoleInviteView,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';

const TIMEOUT = { timeoutMs: 30_000 };

/** The set-password page's link: the token rides in the fragment, which browsers never send to a server. */
export function inviteLink(consoleOrigin: string, token: string): string {
  return `${consoleOrigin.replace(/\/+$/, '')}/console/set-password#token=${token}`;
}

/**
 * Admin routes of console people: invites (with the link to send), users, live sessions and their
 * revocation, and a tenant's single sign-on, behind the admin token like every admin route.
 * `consoleOrigin`: where tenants reach the public console.
 */
export function registerConsolePeopleRoutes(fastify: FastifyInstance, bus: NatsBus, consoleOrigin: () => string): void {
  fastify.post('/admin/console/invites', async (request, reply): Promise<ConsoleInviteView> => {
    const body = parseInput(ConsoleInviteRequest, request.body ?? {}, 'body');
    const issued = await bus.request(SUBJECTS.accounts.console.users.invite, body, ConsoleInviteIssued, TIMEOUT);
    reply.code(201);
    return { ...issued, link: inviteLink(consoleOrigin(), issued.token) };
  });

  fastify.get('/admin/console/users', async (request) => {
    const query = parseInput(ConsoleUsersRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.console.users.list, query, ConsoleUserList, TIMEOUT);
  });

  fastify.get('/admin/console/sessions', async (request) => {
    const query = parseInput(SessionListRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.console.sessions.list, query, ConsoleSessionList, TIMEOUT);
  });

  fastify.post('/admin/console/sessions/revoke', async (request) => {
    const body = parseInput(SessionRevokeRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.console.sessions.revoke, body, SessionRevokeReply, TIMEOUT);
  });

  fastify.put('/admin/console/oidc', async (request) => {
    const body = parseInput(OidcConfigureRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.console.oidc.configure, body, OidcConfigView, TIMEOUT);
  });

  fastify.get('/admin/console/oidc', async (request) => {
    const query = parseInput(OidcShowRequest, request.query ?? {}, 'query');
    return bus.request(SUBJECTS.accounts.console.oidc.show, query, OidcConfigView, TIMEOUT);
  });
}
