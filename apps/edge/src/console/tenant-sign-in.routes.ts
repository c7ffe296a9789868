import { RPCS } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { clientOf, meOf } from './console-client';
import { clearSessionCookie, setSessionCookie } from './console-cookies';
import type { ConsoleRoutes } from './console-routes';
import { sessionTokenHash, type ConsoleSessionCache } from './console-session.cache';

const TIMEOUT = { timeoutMs: 15_000 };

/** How people of a tenant get in and out: email and password, the session, signing out (invite links are relayed). */
export function registerTenantSignIn(routes: ConsoleRoutes, bus: NatsBus, sessions: ConsoleSessionCache): void {
  routes.handle('session', async (_input, { session }) => meOf(session));

  routes.handle('signIn', async (body, _call, request, reply) => {
    const previous = routes.guard.tokenOf(request);
    const issued = await bus.call(
      RPCS.accounts.console.sessions.signIn,
      { ...body, client: clientOf(request), previousTokenHash: previous ? sessionTokenHash(previous) : null },
      TIMEOUT,
    );
    if (previous) sessions.forget(previous);
    setSessionCookie(request, reply, 'tenant', issued.token, issued.session.expiresAt);
    return meOf(issued.session);
  });

  routes.handle('signOut', async (_input, { token }, request, reply) => {
    await bus.call(RPCS.accounts.console.sessions.signOut, { tokenHash: sessionTokenHash(token) }, TIMEOUT);
    sessions.forget(token);
    clearSessionCookie(request, reply, 'tenant');
    return undefined;
  });
}
