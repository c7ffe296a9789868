import { buildOpenApiDocument, buildRouteIndex } from '@gateway/contracts';
import { scrapeMetrics } from '@gateway/platform';
import type { FastifyInstance } from 'fastify';
import type { HttpMetrics } from './http-metrics';
import type { ReadinessService } from './readiness.service';

/** Unauthenticated operational routes: the route index and OpenAPI document (built once), liveness, readiness, metrics. */
export function registerOpsRoutes(fastify: FastifyInstance, readiness: ReadinessService, metrics: HttpMetrics): void {
  const routeIndex = JSON.stringify(buildRouteIndex());
  const openApi = JSON.stringify(buildOpenApiDocument());
  const json = 'application/json; charset=utf-8';
  fastify.get('/docs/api-endpoints.json', { config: { routeId: 'docs.api-endpoints' } }, (_req, reply) => reply.type(json).send(routeIndex));
  fastify.get('/docs/openapi.json', { config: { routeId: 'docs.openapi' } }, (_req, reply) => reply.type(json).send(openApi));
  fastify.get('/healthz', { config: { routeId: 'ops.healthz' } }, (_req, reply) => reply.send({ status: 'ok' }));
  fastify.get('/readyz', { config: { routeId: 'ops.readyz' } }, async (_req, reply) => {
    const state = await readiness.check();
    const missing = Object.entries(state.services)
      .filter(([, s]) => s !== 'ok')
      .map(([name]) => name);
    const status = state.ready ? 'ready' : readiness.draining ? 'draining' : 'unavailable';
    return reply.code(state.ready ? 200 : 503).send({ status, nats: state.nats, services: state.services, missing });
  });
  // The edge's own series, then the process-wide ones every app shares (NATS timeouts, refusals).
  fastify.get('/metrics', { config: { routeId: 'ops.metrics' } }, async (_req, reply) =>
    reply.type(metrics.registry.contentType).send(`${await metrics.registry.metrics()}\n${await scrapeMetrics()}`),
  );
}
