import { buildOpenApiDocument, buildRouteIndex } from '@gateway/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REFERENCE_CSP, REFERENCE_FAVICON_SVG, REFERENCE_HTML, REFERENCE_PATHS, REFERENCE_SETUP_JS, rendererBundle } from './api-reference.page';

const JSON_TYPE = 'application/json; charset=utf-8';
const JS_TYPE = 'text/javascript; charset=utf-8';
/** The renderer changes only with the installed package, which a deploy replaces with the process. */
const RENDERER_CACHE = 'public, max-age=86400';

function acceptsGzip(request: FastifyRequest): boolean {
  const accepted = request.headers['accept-encoding'];
  return typeof accepted === 'string' && /\bgzip\b/.test(accepted);
}

/**
 * Unauthenticated documentation routes: the route index and the OpenAPI document (both built once at start),
 * and the HTML reference rendered from that document. All static: nothing here touches a request's hot path.
 */
export function registerDocsRoutes(fastify: FastifyInstance): void {
  const routeIndex = JSON.stringify(buildRouteIndex());
  const openApi = JSON.stringify(buildOpenApiDocument());
  const renderer = rendererBundle();
  fastify.get('/docs/api-endpoints.json', { config: { routeId: 'docs.api-endpoints' } }, (_req, reply) => reply.type(JSON_TYPE).send(routeIndex));
  fastify.get(REFERENCE_PATHS.document, { config: { routeId: 'docs.openapi' } }, (_req, reply) => reply.type(JSON_TYPE).send(openApi));
  fastify.get(REFERENCE_PATHS.page, { config: { routeId: 'docs.reference' } }, (_req, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', REFERENCE_CSP).header('x-content-type-options', 'nosniff').send(REFERENCE_HTML),
  );
  fastify.get(REFERENCE_PATHS.setup, { config: { routeId: 'docs.reference' } }, (_req, reply) =>
    reply.type(JS_TYPE).header('cache-control', RENDERER_CACHE).send(REFERENCE_SETUP_JS),
  );
  fastify.get(REFERENCE_PATHS.favicon, { config: { routeId: 'docs.reference' } }, (_req, reply) =>
    reply.type('image/svg+xml').header('cache-control', RENDERER_CACHE).header('x-content-type-options', 'nosniff').send(REFERENCE_FAVICON_SVG),
  );
  fastify.get(REFERENCE_PATHS.renderer, { config: { routeId: 'docs.reference' } }, async (request, reply) => {
    const bundle = await renderer();
    reply.type(JS_TYPE).header('cache-control', RENDERER_CACHE).header('vary', 'accept-encoding');
    return acceptsGzip(request) ? reply.header('content-encoding', 'gzip').send(bundle.gzipped) : reply.send(bundle.plain);
  });
}
