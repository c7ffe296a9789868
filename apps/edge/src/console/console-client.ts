import type { ConsoleMe, ConsoleSessionContext } from '@gateway/contracts';
import type { FastifyRequest } from 'fastify';

/** Who is signing in, for the session list: the client address (a trusted proxy's X-Forwarded-For) and the user agent, cut short. */
export function clientOf(request: FastifyRequest): { ip: string | null; userAgent: string | null } {
  const agent = request.headers['user-agent'];
  return { ip: request.ip?.slice(0, 64) ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 256) : null };
}

/** The origin the browser reached: scheme and host, as a trusted proxy forwards them. */
export function ownOriginOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** What the page learns of its session: never the cookie's token, but the CSRF token it must send back. */
export function meOf(session: ConsoleSessionContext): ConsoleMe {
  return {
    kind: session.kind,
    email: session.email,
    role: session.role,
    tenant: session.tenantSlug,
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt,
  };
}
