import { ADMIN_ROUTES, parseInput, type AdminRelay, type AdminRoute, type AdminRoutes, type HandledAdminRouteName } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';

/** How long a route waits for its service when its entry does not say. */
const DEFAULT_TIMEOUT_MS = 30_000;

/** The edge's own answer to a route of the table: from the parsed input to the answer. */
export type AdminHandler<R extends AdminRoute> = (input: z.output<R['request']>, request: FastifyRequest) => Promise<z.input<R['reply']>>;

/** A handler for each route the table does not relay, and for no other. */
export type AdminHandlers = { [K in HandledAdminRouteName]: AdminHandler<AdminRoutes[K]> };

function inputOf(route: AdminRoute, request: FastifyRequest): unknown {
  switch (route.input) {
    case 'body':
      return request.body ?? {};
    case 'query':
      return request.query ?? {};
    case 'path':
      return request.params;
    case 'none':
      return {};
  }
}

function relayOf(route: AdminRoute, relay: AdminRelay, bus: NatsBus): AdminHandler<AdminRoute> {
  const options = { timeoutMs: route.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  return async (input, request) => {
    const message = relay.message ? relay.message(input, request.body ?? {}) : input;
    const reply = await bus.call(relay.rpc, message, options);
    return relay.answer ? relay.answer(reply) : reply;
  };
}

/**
 * Registers every route of the admin table: its input parsed once with its schema (the error names the
 * field and where it was), then relayed to its subject or answered by its handler. A route with both a
 * relay and a handler, or neither, stops the start.
 */
export function registerAdminTable(
  fastify: FastifyInstance,
  bus: NatsBus,
  handlers: AdminHandlers,
  routes: Readonly<Record<string, AdminRoute>> = ADMIN_ROUTES,
): number {
  const own: Readonly<Record<string, AdminHandler<AdminRoute> | undefined>> = handlers;
  const unknown = Object.keys(own).filter((name) => !(name in routes));
  if (unknown.length > 0) throw new Error(`admin handlers for routes the table does not hold: ${unknown.join(', ')}`);
  for (const [name, route] of Object.entries(routes)) {
    const handler = own[name];
    if (route.relay && handler) throw new Error(`admin route ${name} has both a relay and a handler`);
    const answer = route.relay ? relayOf(route, route.relay, bus) : handler;
    if (!answer) throw new Error(`admin route ${name} has neither a relay nor a handler`);
    fastify.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        const input = route.input === 'none' ? {} : parseInput(route.request, inputOf(route, request), route.input);
        const answered = await answer(input, request);
        if (route.status) reply.code(route.status);
        return answered;
      },
    });
  }
  return Object.keys(routes).length;
}
