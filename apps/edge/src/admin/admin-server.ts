import { GatewayError } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { toGatewayError } from '../errors/error-dialect';
import { httpStatusOf } from '../errors/error-status';
import { registerAdminRoutes } from './admin-routes';
import { registerUsageRoutes } from './usage-routes';

function sendAdminError(reply: FastifyReply, thrown: unknown): FastifyReply {
  const error = toGatewayError(thrown);
  return reply.code(httpStatusOf(error)).send({ error: { code: error.code, message: error.message, param: error.param } });
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The admin API's own listener (plain Fastify, loopback by default): operator routes only, errors as
 * `{error:{code,message,param}}`, and the admin token required when one is configured.
 */
export function createAdminServer(bus: NatsBus, adminToken: string | undefined): FastifyInstance {
  const fastify = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  if (adminToken !== undefined) {
    fastify.addHook('onRequest', async (request, reply) => {
      if (!tokenMatches(request.headers.authorization, adminToken)) {
        return sendAdminError(reply, new GatewayError('authentication_failed', 'The admin API requires Authorization: Bearer <ADMIN_TOKEN>.'));
      }
    });
  }
  fastify.setErrorHandler((error, _request, reply) => sendAdminError(reply, error));
  fastify.setNotFoundHandler((request, reply) =>
    sendAdminError(reply, GatewayError.notFound(`No admin route ${request.method} ${request.url.split('?')[0]}.`)),
  );
  registerAdminRoutes(fastify, bus);
  registerUsageRoutes(fastify, bus);
  return fastify;
}
