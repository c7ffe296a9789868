import { GatewayError, httpStatusOf } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { frameworkRefusal } from '../errors/client-error';
import { toGatewayError } from '../errors/error-dialect';
import { hostNameOf, isLoopbackHost } from './admin-exposure';
import { adminHandlers } from './admin-handlers';
import { registerAdminTable } from './admin-table';
import { installLingeringClose } from '../routing/refused-body';

function sendAdminError(reply: FastifyReply, thrown: unknown): FastifyReply {
  const error = toGatewayError(thrown);
  return reply.code(httpStatusOf(error)).send({ error: { code: error.code, message: error.message, param: error.param } });
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isConsolePath(url: string): boolean {
  return url === '/console' || url.startsWith('/console/') || url.startsWith('/console?');
}

function hostAllowed(host: string | undefined, hostNames: ReadonlySet<string>): boolean {
  if (host === undefined) return false;
  const name = hostNameOf(host);
  return isLoopbackHost(name) || hostNames.has(name);
}

/** The host of an Origin header (`scheme://host[:port]`); null for `null` and anything unparsable. */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * A browser on the operator's machine can be made to reach the loopback admin API: through a rebound
 * DNS name (a foreign Host) or a cross-site form or fetch (a foreign Origin). Both are refused.
 */
function refusedByHostOrOrigin(headers: Record<string, string | string[] | undefined>, hostNames: ReadonlySet<string>): GatewayError | null {
  const host = typeof headers.host === 'string' ? headers.host : undefined;
  if (!hostAllowed(host, hostNames)) {
    return new GatewayError(
      'permission_denied',
      'The admin API answers only to loopback host names and ADMIN_ALLOWED_HOSTS: the Host header names another host.',
      'host',
      421,
    );
  }
  const origin = headers.origin;
  if (origin === undefined) return null;
  const from = typeof origin === 'string' ? originHost(origin) : null;
  if (from !== null && hostAllowed(from, hostNames)) return null;
  return new GatewayError('permission_denied', 'The admin API refuses cross-origin requests: the Origin header names a foreign site.', 'origin');
}

/** The public listener on its defaults. */
const DEFAULT_CONSOLE_ORIGIN = 'http://127.0.0.1:8080';

const CLOSED_MESSAGE =
  'The admin API is closed: ADMIN_TOKEN is not set on the edge. Set it (npm start generates one in .data/admin-token) and send Authorization: Bearer <ADMIN_TOKEN>.';

/**
 * The admin API's own listener (plain Fastify, loopback by default): operator routes only, errors as
 * `{error:{code,message,param}}`, the Host and Origin headers checked, and the admin token always
 * required: with no ADMIN_TOKEN configured every call is refused. `hostNames`: the names it answers
 * to besides loopback ones; `consoleOrigin`: where tenants reach the public console (invite links).
 */
export function createAdminServer(
  bus: NatsBus,
  adminToken: string | undefined,
  hostNames: ReadonlySet<string> = new Set(),
  consoleOrigin: () => string = () => DEFAULT_CONSOLE_ORIGIN,
): FastifyInstance {
  const fastify = Fastify({
    logger: false,
    bodyLimit: 16 * 1024 * 1024,
    // A malformed URL is refused in the admin shape, and its connection lingers like any early refusal.
    frameworkErrors: (error, request, reply) => sendAdminError(reply, frameworkRefusal(error, request)),
  });
  // A refusal sent before the body was read (wrong token, Host, Origin or CSRF token) lets the client finish writing.
  installLingeringClose(fastify);
  fastify.addHook('onRequest', async (request, reply) => {
    const refusal = refusedByHostOrOrigin(request.headers, hostNames);
    if (refusal) return sendAdminError(reply, refusal);
  });
  fastify.addHook('onRequest', async (request, reply) => {
    // The operator console signs in with the token once and then holds a session cookie (console/operator.routes.ts).
    if (isConsolePath(request.url)) return;
    if (adminToken === undefined) {
      return sendAdminError(reply, new GatewayError('authentication_failed', CLOSED_MESSAGE));
    }
    if (!tokenMatches(request.headers.authorization, adminToken)) {
      return sendAdminError(reply, new GatewayError('authentication_failed', 'The admin API requires Authorization: Bearer <ADMIN_TOKEN>.'));
    }
  });
  fastify.setErrorHandler((error, _request, reply) => sendAdminError(reply, error));
  fastify.setNotFoundHandler((request, reply) =>
    sendAdminError(reply, GatewayError.notFound(`No admin route ${request.method} ${request.url.split('?')[0]}.`)),
  );
  registerAdminTable(fastify, bus, adminHandlers(bus, consoleOrigin));
  return fastify;
}
