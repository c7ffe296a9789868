import { scrapeMetrics } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';
import type { HttpMetrics } from './http-metrics';
import type { ReadinessService } from './readiness.service';

/** Unauthenticated operational routes: liveness, readiness, metrics. */
export function registerOpsRoutes(fastify: FastifyInstance, readiness: ReadinessService, metrics: HttpMetrics): void {
  fastify.get('/healthz', { config: { routeId: 'ops.healthz' } }, (_req, reply) => reply.send({ status: 'ok' }));
  fastify.get('/readyz', { config: { routeId: 'ops.readyz' } }, async (_req, reply) => {
    const state = await readiness.check();
    const missing = Object.entries(state.services)
      .filter(([, s]) => s !== 'ok')
      .map(([name]) => name);
    const status = state.ready ? 'ready' : readiness.draining ? 'draining' : 'unavailable';
    return reply.code(state.ready ? 200 : 503).send({ status, nats: state.nats, redis: state.redis, services: state.services, missing });
  });
  // The edge's own series, then the process-wide ones every app shares (NATS timeouts, refusals).
  fastify.get('/metrics', { config: { routeId: 'ops.metrics' } }, async (_req, reply) =>
    reply.type(metrics.registry.contentType).send(`${await metrics.registry.metrics()}\n${await scrapeMetrics()}`),
  );
}
