import { GatewayError, RPCS } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { timingSafeEqual } from 'node:crypto';
import { AuthFailureLimiter } from '../auth/auth-failure-limiter';
import { clientOf, meOf } from './console-client';
import { clearSessionCookie, setSessionCookie } from './console-cookies';
import type { ConsoleRoutes } from './console-routes';
import { sessionTokenHash, type ConsoleSessionCache } from './console-session.cache';

const TIMEOUT = { timeoutMs: 15_000 };

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface OperatorConsoleOptions {
  /** The admin token the operator exchanges for a session; unset: the operator console cannot be signed in to. */
  adminToken: string | undefined;
  failuresPerMinute: number;
}

/** The operator console's way in and out on the admin listener: the admin token exchanged for a session (the tenants pages are relayed). */
export function registerOperatorConsole(routes: ConsoleRoutes, bus: NatsBus, sessions: ConsoleSessionCache, options: OperatorConsoleOptions): void {
  const failures = new AuthFailureLimiter(options.failuresPerMinute);

  routes.handle('operatorSession', async (_input, { session }) => meOf(session));

  routes.handle('operatorSignIn', async ({ token }, _call, request, reply) => {
    if (options.adminToken === undefined) {
      throw new GatewayError('unavailable', 'The operator console needs ADMIN_TOKEN set on the edge: set it and restart.', 'token');
    }
    const wait = failures.retryAfterSeconds(request.ip);
    if (wait !== null) throw new GatewayError('rate_limited', `Too many wrong admin tokens from this address: try again in ${wait} s.`, 'token', null, wait);
    if (!sameToken(token, options.adminToken)) {
      failures.record(request.ip);
      throw new GatewayError('authentication_failed', 'That is not the admin token.', 'token');
    }
    const previous = routes.guard.tokenOf(request);
    const issued = await bus.call(
      RPCS.accounts.console.sessions.openOperator,
      { client: clientOf(request), previousTokenHash: previous ? sessionTokenHash(previous) : null },
      TIMEOUT,
    );
    if (previous) sessions.forget(previous);
    setSessionCookie(request, reply, 'operator', issued.token, issued.session.expiresAt);
    return meOf(issued.session);
  });

  routes.handle('operatorSignOut', async (_input, { token }, request, reply) => {
    await bus.call(RPCS.accounts.console.sessions.signOut, { tokenHash: sessionTokenHash(token) }, TIMEOUT);
    sessions.forget(token);
    clearSessionCookie(request, reply, 'operator');
    return undefined;
  });
}
