import {
  CONSOLE_ROUTES,
  consoleRoutesOf,
  GatewayError,
  parseInput,
  type ConsoleCaller,
  type ConsoleGrant,
  type ConsoleRelay,
  type ConsoleRoute,
  type ConsoleRouteInput,
  type ConsoleRouteName,
  type ConsoleRouteTable,
} from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { z } from 'zod';
import type { ConsoleGuard, SignedIn } from './console-guard';
import { sendConsoleError } from './console-reply';

/** Console API bodies are small forms: anything larger is refused before it is read. */
const BODY_LIMIT = 64 * 1024;
/** How long a route waits for its service when its entry does not say. */
const DEFAULT_TIMEOUT_MS = 15_000;

type OpenHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type SignedInHandler = (request: FastifyRequest, reply: FastifyReply, call: SignedIn) => Promise<unknown>;

/** The session a route is called in: none for an open route. */
type CallOf<R extends ConsoleRoute> = R extends { access: 'open' } ? null : SignedIn;

/** The edge's own answer to a route of the console table, from its parsed input (the reply, or the reply already sent). */
export type ConsoleHandler<R extends ConsoleRoute> = (
  input: ConsoleRouteInput<R>,
  call: CallOf<R>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<z.input<R['reply']> | FastifyReply>;

/** The tenant a tenant session names; an operator session names none. */
function callerOf(call: SignedIn | null): ConsoleCaller | null {
  const session = call?.session;
  return session?.tenantSlug && session.tenantId && session.userId ? { tenant: session.tenantSlug, tenantId: session.tenantId, userId: session.userId } : null;
}

/**
 * Registers console API routes on one listener: each checks its origin, then (for signed-in routes) its
 * session, CSRF token and grant, inside its own handler: no hook is added to any other route. Routes of
 * the console table are registered from their entries, relayed or handled; `complete()` stops the start
 * when a route of this listener's side has neither.
 */
export class ConsoleRoutes {
  private readonly registered = new Set<ConsoleRouteName>();

  constructor(
    private readonly fastify: FastifyInstance,
    readonly guard: ConsoleGuard,
    private readonly side: ConsoleRoute['side'],
  ) {}

  /** A route anyone may call from the console's own origin (sign-in, invite links). */
  open(method: HTTPMethods, url: string, routeId: string, handler: OpenHandler): void {
    this.fastify.route({
      method,
      url,
      bodyLimit: BODY_LIMIT,
      config: { routeId },
      handler: async (request, reply) => {
        try {
          this.guard.checkOrigin(request);
          const result = await handler(request, reply);
          return reply.sent ? reply : reply.header('cache-control', 'no-store').send(result);
        } catch (error) {
          return sendConsoleError(reply, error);
        }
      },
    });
  }

  /** Any other path under /console/api: a JSON 404 rather than the page. */
  unknownPaths(): void {
    this.fastify.all('/console/api/*', { config: { routeId: 'console.unknown' } }, async (request, reply) =>
      sendConsoleError(reply, GatewayError.notFound(`No console API route ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}.`)),
    );
  }

  /** A route for a signed-in session holding `grant` (null: any session of this side). */
  signedIn(method: HTTPMethods, url: string, routeId: string, grant: ConsoleGrant | null, handler: SignedInHandler): void {
    this.open(method, url, routeId, async (request, reply) => handler(request, reply, await this.guard.signedIn(request, grant)));
  }

  /** The route of the table named `name`, answered by the edge: its access checked, its parts parsed once. */
  handle<K extends ConsoleRouteName>(name: K, handler: ConsoleHandler<ConsoleRouteTable[K]>): void {
    this.add(name, handler as ConsoleHandler<ConsoleRoute>);
  }

  /** Every route of this side that the table relays to a service. */
  relayAll(bus: NatsBus): void {
    for (const { name, route, relay } of consoleRoutesOf(this.side)) {
      if (relay) this.add(name, this.relayOf(route, relay, bus), true);
    }
  }

  /** Stops the start when a route of this side's table was registered neither as a relay nor with a handler. */
  complete(): void {
    const missing = consoleRoutesOf(this.side).filter(({ name }) => !this.registered.has(name));
    if (missing.length > 0) throw new Error(`console routes with neither a relay nor a handler: ${missing.map(({ name }) => name).join(', ')}`);
  }

  private relayOf(route: ConsoleRoute, relay: ConsoleRelay, bus: NatsBus): ConsoleHandler<ConsoleRoute> {
    const options = { timeoutMs: route.timeoutMs ?? DEFAULT_TIMEOUT_MS };
    return async (input, call) => {
      const message: unknown = relay.message ? relay.message(input, callerOf(call) as ConsoleCaller) : input;
      const answer = await bus.call(relay.rpc, message, options);
      return relay.answer ? relay.answer(answer) : answer;
    };
  }

  private add(name: ConsoleRouteName, handler: ConsoleHandler<ConsoleRoute>, relayed = false): void {
    const route: ConsoleRoute = CONSOLE_ROUTES[name];
    if (route.side !== this.side) throw new Error(`console route ${name} belongs to the ${route.side} console`);
    if (this.registered.has(name)) throw new Error(`console route ${name} has both a relay and a handler, or two handlers`);
    if (!relayed && consoleRoutesOf(this.side).some((entry) => entry.name === name && entry.relay)) {
      throw new Error(`console route ${name} has both a relay and a handler`);
    }
    this.registered.add(name);
    const answer = async (request: FastifyRequest, reply: FastifyReply, call: SignedIn | null) => {
      const input = {
        ...(route.params ? (parseInput(route.params, request.params, 'path') as object) : {}),
        ...(route.query ? (parseInput(route.query, request.query ?? {}, 'query') as object) : {}),
        ...(route.body ? (parseInput(route.body, request.body ?? {}, 'body') as object) : {}),
      } as ConsoleRouteInput<ConsoleRoute>;
      const answered = await handler(input, call as CallOf<ConsoleRoute>, request, reply);
      if (reply.sent) return reply;
      if (route.status) reply.code(route.status);
      return route.status === 204 ? reply.send() : answered;
    };
    if (route.access === 'open') this.open(route.method, route.path, route.routeId, (request, reply) => answer(request, reply, null));
    else this.signedIn(route.method, route.path, route.routeId, route.access === 'session' ? null : route.access, answer);
  }
}
