import type { KeyContext, RouteDef } from '@gateway/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** What a route handler receives: the authenticated key and the request already parsed by the route's schemas. */
export interface RouteRequest<Query = unknown, Body = unknown> {
  route: RouteDef;
  requestId: string;
  key: KeyContext;
  params: Record<string, string>;
  query: Query;
  body: Body;
  raw: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A handler returns the JSON body to send with status 200, or sends the reply itself
 * (streams, binary bodies, other statuses) and returns undefined. It throws GatewayError on failure;
 * the registrar maps it to the route family's dialect.
 */
export type RouteHandlerFn = (request: RouteRequest) => Promise<unknown> | unknown;

declare module 'fastify' {
  interface FastifyRequest {
    /** The key authenticated in the route's onRequest hook; null until then and on routes without auth. */
    apiKey: KeyContext | null;
  }
}
