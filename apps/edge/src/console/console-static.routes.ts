import fastifyStatic from '@fastify/static';
import type { ConsoleSide } from '@gateway/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Placeholder in the built index.html that tells the page which console it is (see apps/console/index.html). */
const SIDE_MARK = '<meta name="console-side" content="tenant" />';

/**
 * Pages may only load this origin's scripts; Mantine sets styles inline. No framing, no foreign form
 * targets, no referrer (an invite link's token rides in the fragment, which is never sent anyway).
 */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
} as const;

/** The built index.html with the side marked, read once; null when the console was not built. */
function indexFor(distDir: string, side: ConsoleSide): string | null {
  try {
    const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    return side === 'tenant' ? html : html.replace(SIDE_MARK, SIDE_MARK.replace('tenant', side));
  } catch {
    return null;
  }
}

/**
 * Serves the console's static files under /console in an encapsulated scope of their own: hashed assets
 * cached for a year, every other path the single page (its router picks the page). Registered beside
 * the API routes, with no hook on any of them.
 */
export function registerConsoleStatic(fastify: FastifyInstance, distDir: string, side: ConsoleSide): void {
  const index = indexFor(distDir, side);
  const page = async (_request: unknown, reply: FastifyReply) => {
    if (index === null) return reply.code(503).type('text/plain; charset=utf-8').send('The console is not built: run npm run build.\n');
    return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(index);
  };
  void fastify.register(async (scope) => {
    await scope.register(fastifyStatic, { root: distDir, serve: false });
    scope.get('/console/assets/*', { config: { routeId: 'console.asset' } }, (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      return reply.header('x-content-type-options', 'nosniff').sendFile(path.posix.join('assets', name), { immutable: true, maxAge: '365d' });
    });
    scope.get('/console', { config: { routeId: 'console.page' } }, page);
    scope.get('/console/*', { config: { routeId: 'console.page' } }, page);
  });
}
