import {
  AcceptInviteRequest,
  ConsoleInviteInfo,
  ConsoleSessionIssued,
  InviteTokenRequest,
  parseInput,
  SessionRevokeReply,
  SignInRequest,
  SUBJECTS,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { z } from 'zod';
import { clientOf, meOf } from './console-client';
import { clearSessionCookie, setSessionCookie } from './console-cookies';
import type { ConsoleRoutes } from './console-routes';
import { sessionTokenHash, type ConsoleSessionCache } from './console-session.cache';

const TIMEOUT = { timeoutMs: 15_000 };
const Accepted = z.object({ email: z.string(), tenant: z.string() });

/** How people of a tenant get in and out: email and password, the invite link's password, the session, signing out. */
export function registerTenantSignIn(routes: ConsoleRoutes, bus: NatsBus, sessions: ConsoleSessionCache): void {
  routes.signedIn('GET', '/console/api/session', 'console.session', null, async (_request, _reply, { session }) => meOf(session));

  routes.open('POST', '/console/api/session', 'console.sign-in', async (request, reply) => {
    const body = parseInput(SignInRequest, request.body ?? {}, 'body');
    const previous = routes.guard.tokenOf(request);
    const issued = await bus.request(
      SUBJECTS.accounts.console.sessions.signIn,
      { ...body, client: clientOf(request), previousTokenHash: previous ? sessionTokenHash(previous) : null },
      ConsoleSessionIssued,
      TIMEOUT,
    );
    if (previous) sessions.forget(previous);
    setSessionCookie(request, reply, 'tenant', issued.token, issued.session.expiresAt);
    return meOf(issued.session);
  });

  routes.signedIn('DELETE', '/console/api/session', 'console.sign-out', null, async (request, reply, { token }) => {
    await bus.request(SUBJECTS.accounts.console.sessions.signOut, { tokenHash: sessionTokenHash(token) }, SessionRevokeReply, TIMEOUT);
    sessions.forget(token);
    clearSessionCookie(request, reply, 'tenant');
    return reply.code(204).send();
  });

  // The invite token travels in the body, never in a URL a log or a Referer could keep.
  routes.open('POST', '/console/api/invites/lookup', 'console.invite-lookup', async (request) => {
    const { token } = parseInput(InviteTokenRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.console.users.inviteInfo, { token }, ConsoleInviteInfo, TIMEOUT);
  });

  routes.open('POST', '/console/api/invites/accept', 'console.invite-accept', async (request) => {
    const body = parseInput(AcceptInviteRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.console.users.acceptInvite, body, Accepted, TIMEOUT);
  });
}
