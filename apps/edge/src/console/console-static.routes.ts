import fastifyStatic from '@fastify/static';
import type { ConsoleSide } from '@gateway/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { consoleAssetName, consolePagePath, isHashedAssetName } from './console-static-path';

/** Placeholder in the built index.html that tells the page which console it is (see apps/console/index.html). */
const SIDE_MARK = '<meta name="console-side" content="tenant" />';

/** Every answer of the console's static scope: never sniffed, never framed. */
const ALWAYS = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' } as const;

/**
 * Pages may only load this origin's scripts; Mantine sets styles inline. No framing, no foreign form
 * targets, no referrer (an invite link's token rides in the fragment, which is never sent anyway).
 */
const PAGE_HEADERS = {
  ...ALWAYS,
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
} as const;

const REFUSAL_HEADERS = { ...ALWAYS, 'content-security-policy': "default-src 'none'; frame-ancestors 'none'", 'cache-control': 'no-store' } as const;

/** The built index.html with the side marked, read once; null when the console was not built. */
function indexFor(distDir: string, side: ConsoleSide): string | null {
  try {
    const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    return side === 'tenant' ? html : html.replace(SIDE_MARK, SIDE_MARK.replace('tenant', side));
  } catch {
    return null;
  }
}

/** The names in the built assets folder, listed once: only these are ever looked up on disk. */
function assetNamesIn(distDir: string): ReadonlySet<string> {
  try {
    return new Set(
      readdirSync(path.join(distDir, 'assets'), { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => entry.name),
    );
  } catch {
    return new Set();
  }
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).headers(REFUSAL_HEADERS).type('text/plain; charset=utf-8').send('Not found.\n');
}

/**
 * Serves the console's static files under /console in an encapsulated scope of their own. The raw path is
 * decoded and checked before any lookup (encoded slashes, backslashes, dot segments: 404); an asset is
 * served only when its name is one the build wrote, immutable only when the name carries its hash; every
 * other path is the single page (its router picks the page). Registered beside the API routes, with no
 * hook on any of them.
 */
export function registerConsoleStatic(fastify: FastifyInstance, distDir: string, side: ConsoleSide): void {
  const index = indexFor(distDir, side);
  const assets = assetNamesIn(distDir);
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (consolePagePath(request.url) === null) return notFound(reply);
    if (index === null)
      return reply.code(503).headers(REFUSAL_HEADERS).type('text/plain; charset=utf-8').send('The console is not built: run npm run build.\n');
    return reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(index);
  };
  const asset = async (request: FastifyRequest, reply: FastifyReply) => {
    const name = consoleAssetName(request.url);
    if (name === null || !assets.has(name)) return notFound(reply);
    reply.headers(ALWAYS);
    if (isHashedAssetName(name)) return reply.sendFile(path.posix.join('assets', name), { immutable: true, maxAge: '365d' });
    return reply.header('cache-control', 'no-cache').sendFile(path.posix.join('assets', name), { cacheControl: false });
  };
  void fastify.register(async (scope) => {
    await scope.register(fastifyStatic, { root: distDir, serve: false });
    scope.get('/console/assets/*', { config: { routeId: 'console.asset' } }, asset);
    scope.get('/console', { config: { routeId: 'console.page' } }, page);
    scope.get('/console/*', { config: { routeId: 'console.page' } }, page);
  });
}
