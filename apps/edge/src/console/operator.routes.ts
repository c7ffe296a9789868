import {
  BalanceView,
  ConsoleSessionIssued,
  ConsoleTenantPage,
  ConsoleTenantsRequest,
  ConsoleTopupRequest,
  GatewayError,
  OperatorSignInRequest,
  parseInput,
  SessionRevokeReply,
  SUBJECTS,
  TenantCreateRequest,
  TenantGetRequest,
  TenantView,
} from '@gateway/contracts';
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

/** The operator console on the admin listener: the admin token exchanged for a session, and the tenants page (list, create, top up). */
export function registerOperatorConsole(routes: ConsoleRoutes, bus: NatsBus, sessions: ConsoleSessionCache, options: OperatorConsoleOptions): void {
  const failures = new AuthFailureLimiter(options.failuresPerMinute);

  routes.signedIn('GET', '/console/api/session', 'console.operator-session', null, async (_request, _reply, { session }) => meOf(session));

  routes.open('POST', '/console/api/session', 'console.operator-sign-in', async (request, reply) => {
    const { token } = parseInput(OperatorSignInRequest, request.body ?? {}, 'body');
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
    const issued = await bus.request(
      SUBJECTS.accounts.console.sessions.openOperator,
      { client: clientOf(request), previousTokenHash: previous ? sessionTokenHash(previous) : null },
      ConsoleSessionIssued,
      TIMEOUT,
    );
    if (previous) sessions.forget(previous);
    setSessionCookie(request, reply, 'operator', issued.token, issued.session.expiresAt);
    return meOf(issued.session);
  });

  routes.signedIn('DELETE', '/console/api/session', 'console.operator-sign-out', null, async (request, reply, { token }) => {
    await bus.request(SUBJECTS.accounts.console.sessions.signOut, { tokenHash: sessionTokenHash(token) }, SessionRevokeReply, TIMEOUT);
    sessions.forget(token);
    clearSessionCookie(request, reply, 'operator');
    return reply.code(204).send();
  });

  routes.signedIn('GET', '/console/api/tenants', 'console.tenants', null, async (request) =>
    bus.request(SUBJECTS.accounts.console.tenants, parseInput(ConsoleTenantsRequest, request.query ?? {}, 'query'), ConsoleTenantPage, TIMEOUT),
  );

  routes.signedIn('POST', '/console/api/tenants', 'console.tenant-create', null, async (request, reply) => {
    const body = parseInput(TenantCreateRequest, request.body ?? {}, 'body');
    return reply
      .code(201)
      .header('cache-control', 'no-store')
      .send(await bus.request(SUBJECTS.accounts.tenants.create, body, TenantView, TIMEOUT));
  });

  routes.signedIn('POST', '/console/api/tenants/:slug/topup', 'console.tenant-topup', null, async (request) => {
    const { slug } = parseInput(TenantGetRequest, request.params, 'path');
    const { amount } = parseInput(ConsoleTopupRequest, request.body ?? {}, 'body');
    return bus.request(SUBJECTS.accounts.balance.topup, { tenant: slug, amountMicros: amount.toString() }, BalanceView, TIMEOUT);
  });
}
