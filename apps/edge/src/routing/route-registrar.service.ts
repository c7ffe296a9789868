import { ROUTES, parseOrThrow, type RouteDef } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../auth/auth.service';
import { sendError } from '../errors/error-reply';
import type { EdgeRouteConfig } from './route-config';
import { setRequestIdHeaders } from './request-id';
import { ROUTE_HANDLER_ID } from './route-handler.decorator';
import { toFastifyPath } from './route-path';
import type { RouteHandlerFn } from './route-request';

/**
 * Turns the contract's route table into Fastify routes: every built route gets the provider method
 * decorated with its id, behind auth and schema parsing, with errors in the route family's dialect.
 * Routes go straight onto the Fastify instance: no per-request Nest pipeline on the hot path.
 */
@Injectable()
export class RouteRegistrar {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  /** Every @RouteHandler method of every provider, by route id. */
  collectHandlers(): Map<string, RouteHandlerFn> {
    const handlers = new Map<string, RouteHandlerFn>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const method = instance[name];
        if (typeof method !== 'function') continue;
        const routeId = this.reflector.get<string | undefined>(ROUTE_HANDLER_ID, method);
        if (routeId === undefined) continue;
        if (handlers.has(routeId)) throw new Error(`Two handlers for route ${routeId} (one is ${wrapper.name}.${name})`);
        handlers.set(routeId, (method as RouteHandlerFn).bind(instance));
      }
    }
    return handlers;
  }

  /** Registers every built route; a built route without a handler, or a handler for no route, stops start-up. */
  register(fastify: FastifyInstance, routes: readonly RouteDef[] = ROUTES): number {
    const handlers = this.collectHandlers();
    const known = new Set(routes.map((r) => r.id));
    for (const id of handlers.keys()) {
      if (!known.has(id)) throw new Error(`@RouteHandler('${id}') names no route of the route table`);
    }
    let count = 0;
    for (const route of routes) {
      if (!route.built) continue;
      const handler = handlers.get(route.id);
      if (!handler) throw new Error(`Route ${route.method} ${route.path} (${route.id}) is built but has no @RouteHandler`);
      const config: EdgeRouteConfig = { routeId: route.id, family: route.family };
      fastify.route({ method: route.method, url: toFastifyPath(route.path), config, handler: this.pipeline(route, handler) });
      count++;
    }
    return count;
  }

  private pipeline(route: RouteDef, handler: RouteHandlerFn) {
    const auth = this.auth;
    return async function handle(raw: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      const requestId = String(raw.id);
      setRequestIdHeaders(reply);
      try {
        const key = await auth.authenticate(route.auth, raw.headers);
        const query = route.query ? parseOrThrow(route.query, raw.query ?? {}) : raw.query;
        const body = route.body ? parseOrThrow(route.body, raw.body) : raw.body;
        const params = (raw.params ?? {}) as Record<string, string>;
        const result = await handler({ route, requestId, key, params, query, body, raw, reply });
        return result === undefined || reply.sent ? reply : result;
      } catch (error) {
        if (reply.sent) throw error;
        return sendError(reply, route.family, error);
      }
    };
  }
}
