import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

type NestInstance = ReturnType<FastifyAdapter['setNotFoundHandler']>;

/**
 * Nest's Fastify adapter around the edge's own Fastify instance, minus Nest's 404 and error handlers:
 * the edge answers both itself, in the dialect of the route family (see edge.app.ts), and Fastify
 * accepts only one of each.
 */
export class EdgeFastifyAdapter extends FastifyAdapter {
  constructor(instance: FastifyInstance) {
    // Nest pins its own fastify patch release; the instance API it uses is the same, only the nominal types differ.
    super(instance as unknown as NestInstance);
  }

  /**
   * No Express-style middleware layer (@fastify/middie) on every request: the edge registers no Nest
   * middleware, and one registered later still gets the layer, on demand (createMiddlewareFactory).
   */
  override async init(): Promise<void> {}

  override setNotFoundHandler(): NestInstance {
    return this.getInstance<NestInstance>();
  }

  override setErrorHandler(): ReturnType<FastifyAdapter['setErrorHandler']> {
    return this.getInstance<ReturnType<FastifyAdapter['setErrorHandler']>>();
  }
}
