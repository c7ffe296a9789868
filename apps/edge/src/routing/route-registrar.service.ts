import { ROUTES, parseOrThrow, type RouteDef } from '@gateway/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthService } from '../auth/auth.service';
import { assertKeyMayCall } from '../auth/key-route-rule';
import { sendError } from '../errors/error-reply';
import { logIfInternal } from '../errors/internal-error-log';
import { TableRelay } from '../relay/table-relay.service';
import { assertIdentityEncoding, assertJsonContentType } from './json-content-type';
import { registerWrongMethodRoutes } from './wrong-method.routes';
import type { BodyLimit } from './body-limits';
import type { EdgeRouteConfig } from './route-config';
import { setRequestIdHeaders } from './request-id';
import { ROUTE_HANDLER_ID } from './route-handler.decorator';
import { toFastifyPath } from './route-path';
import type { RouteHandlerFn } from './route-request';

/**
 * Turns the contract's route table into Fastify routes: every built route is served by the table relay
 * (an entry with `relay`) or by the provider method decorated with its id, behind auth and schema
 * parsing, with errors in the route family's dialect.
 * Routes go straight onto the Fastify instance: no per-request Nest pipeline on the hot path.
 */
@Injectable()
export class RouteRegistrar {
  private readonly logger = new Logger('edge');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    private readonly relay: TableRelay,
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

  /**
   * Registers every built route. A built route with neither a relay nor a handler, a relayed route that
   * also has a handler, or a handler for no route stops start-up.
   * `bodyLimitOf` gives each route the largest body it reads (Fastify's own limit otherwise).
   */
  register(fastify: FastifyInstance, routes: readonly RouteDef[] = ROUTES, bodyLimitOf?: (route: RouteDef) => BodyLimit): number {
    const handlers = this.collectHandlers();
    if (!fastify.hasRequestDecorator('apiKey')) fastify.decorateRequest('apiKey', null);
    const known = new Set(routes.map((r) => r.id));
    for (const id of handlers.keys()) {
      if (!known.has(id)) throw new Error(`@RouteHandler('${id}') names no route of the route table`);
    }
    let count = 0;
    for (const route of routes) {
      if (!route.built) continue;
      const handler = this.handlerOf(route, handlers);
      const bodyLimit = bodyLimitOf?.(route);
      const config: EdgeRouteConfig = { routeId: route.id, family: route.family, ...(bodyLimit && { bodyLimit }) };
      fastify.route({
        method: route.method,
        url: toFastifyPath(route.path),
        config,
        ...(bodyLimit && { bodyLimit: bodyLimit.bytes }),
        onRequest: this.guard(route),
        handler: this.pipeline(route, handler),
      });
      count++;
    }
    registerWrongMethodRoutes(
      fastify,
      routes.filter((route) => route.built),
    );
    return count;
  }

  private handlerOf(route: RouteDef, handlers: Map<string, RouteHandlerFn>): RouteHandlerFn {
    const handler = handlers.get(route.id);
    const where = `Route ${route.method} ${route.path} (${route.id})`;
    if (route.relay && handler) throw new Error(`${where} is relayed by the route table and also has a @RouteHandler: keep one`);
    if (route.relay) return this.relay.handlerFor(route);
    if (!handler) throw new Error(`${where} is built but has no relay in the route table and no @RouteHandler`);
    return handler;
  }

  /**
   * Authentication, the key's route list and the content-type check, in onRequest: a request without a valid
   * key, or on a route its key may not call, is answered before any of its body is read, let alone parsed.
   */
  private guard(route: RouteDef) {
    const { auth, logger } = this;
    return async function guard(raw: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
      try {
        raw.apiKey = await auth.authenticate(route.auth, { headers: raw.headers, rawHeaders: raw.raw.rawHeaders, clientAddress: raw.ip });
        assertKeyMayCall(raw.apiKey, route);
        assertJsonContentType(route, raw.headers);
        assertIdentityEncoding(route, raw.headers);
        return undefined;
      } catch (error) {
        logIfInternal(logger, raw, error);
        // Returning the sent reply ends the request here: no body read, no handler.
        return sendError(reply, route.family, error);
      }
    };
  }

  private pipeline(route: RouteDef, handler: RouteHandlerFn) {
    const logger = this.logger;
    return async function handle(raw: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      const requestId = String(raw.id);
      setRequestIdHeaders(reply);
      try {
        const key = raw.apiKey;
        if (key === null) throw new Error(`Route ${route.id} reached its handler unauthenticated`);
        const query = route.query ? parseOrThrow(route.query, raw.query ?? {}) : raw.query;
        const body = route.body ? parseOrThrow(route.body, raw.body) : raw.body;
        const params = (raw.params ?? {}) as Record<string, string>;
        const result = await handler({ route, requestId, key, params, query, body, raw, reply });
        return result === undefined || reply.sent ? reply : result;
      } catch (error) {
        if (reply.sent) throw error;
        logIfInternal(logger, raw, error);
        return sendError(reply, route.family, error);
      }
    };
  }
}
