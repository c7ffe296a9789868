import { CSRF_HEADER, GatewayError, roleAllows, type ConsoleGrant, type ConsoleSessionContext } from '@gateway/contracts';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { readCookie, SESSION_COOKIE, type ConsoleSideName } from './console-cookies';
import { foreignOriginRefusal, isStateChanging } from './console-origin';
import type { ConsoleSessionCache } from './console-session.cache';

/** The session a console call runs under, and the cookie token that named it. */
export interface SignedIn {
  session: ConsoleSessionContext;
  token: string;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * What every console API call passes before its handler: its origin, then (unless the route is open)
 * the session its cookie names (of this listener's side), the CSRF token on state-changing calls, and
 * the role's grant. API keys are never read here.
 */
export class ConsoleGuard {
  constructor(
    private readonly sessions: ConsoleSessionCache,
    readonly side: ConsoleSideName,
    private readonly allowedOrigins: readonly string[],
  ) {}

  checkOrigin(request: FastifyRequest): void {
    const refusal = foreignOriginRefusal({
      method: request.method,
      origin: header(request, 'origin'),
      fetchSite: header(request, 'sec-fetch-site'),
      ownOrigin: `${request.protocol}://${request.host}`,
      allowedOrigins: this.allowedOrigins,
    });
    if (refusal) throw refusal;
  }

  /** The cookie's token, whether or not it still names a session. */
  tokenOf(request: FastifyRequest): string | undefined {
    return readCookie(request, SESSION_COOKIE[this.side]);
  }

  async signedIn(request: FastifyRequest, grant: ConsoleGrant | null): Promise<SignedIn> {
    const token = this.tokenOf(request);
    const session = token ? await this.sessions.resolve(token) : null;
    if (!token || session === null || session.kind !== this.side) {
      throw new GatewayError('authentication_failed', 'Sign in to use the console: there is no session, or it ended.');
    }
    if (isStateChanging(request.method)) {
      const sent = header(request, CSRF_HEADER);
      if (sent === undefined || !sameSecret(sent, session.csrfToken)) {
        throw new GatewayError('permission_denied', `The ${CSRF_HEADER} header is missing or wrong: reload the console page and try again.`, CSRF_HEADER);
      }
    }
    if (grant !== null && session.role !== null && !roleAllows(session.role, grant)) {
      throw new GatewayError('permission_denied', `Your role (${session.role}) may not do this: ask a tenant owner.`);
    }
    return { session, token };
  }
}
