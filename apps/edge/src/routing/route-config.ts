import type { Family } from '@gateway/contracts';
import type { BodyLimit } from './body-limits';

/** What every registered Fastify route carries in its config: read by the error handler and metrics. */
export interface EdgeRouteConfig {
  routeId: string;
  family: Family;
  bodyLimit?: BodyLimit;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route id for metrics; set on every edge route. */
    routeId?: string;
    /** Error dialect; set on contract routes, absent on ops routes (which fall back to the path prefix). */
    family?: Family;
    /** The body limit the route was given, named in its 413. */
    bodyLimit?: BodyLimit;
  }
}
