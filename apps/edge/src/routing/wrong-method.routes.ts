import { GatewayError, type Family, type RouteDef } from '@gateway/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { sendError } from '../errors/error-reply';
import { toFastifyPath } from './route-path';

const METHODS: readonly HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface PathMethods {
  path: string;
  family: Family;
  methods: Set<string>;
}

/**
 * A known path asked with a method it does not serve gets 405 with `Allow`, in the family's dialect,
 * instead of the 404 of an unknown path. The contract's path is named, never the URL as sent.
 */
export function registerWrongMethodRoutes(fastify: FastifyInstance, routes: readonly RouteDef[]): void {
  const byPath = new Map<string, PathMethods>();
  for (const route of routes) {
    const url = toFastifyPath(route.path);
    const entry = byPath.get(url) ?? { path: route.path, family: route.family, methods: new Set<string>() };
    entry.methods.add(route.method);
    // Fastify answers HEAD on every GET route.
    if (route.method === 'GET') entry.methods.add('HEAD');
    byPath.set(url, entry);
  }
  for (const [url, { path, family, methods }] of byPath) {
    const allow = METHODS.filter((method) => methods.has(method)).join(', ');
    const wrong = METHODS.filter((method) => !methods.has(method) && !fastify.hasRoute({ method, url }));
    if (wrong.length === 0) continue;
    const refuse = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('allow', allow);
      return sendError(reply, family, new GatewayError('invalid_request', `Method ${request.method} is not allowed on ${path}: use ${allow}.`, null, 405));
    };
    // Answered in onRequest, before any body is read: it would never be used.
    fastify.route({ method: wrong, url, config: { routeId: 'method_not_allowed', family }, onRequest: refuse, handler: refuse });
  }
}
