import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { BUILT_ROUTES } from '@gateway/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { REFERENCE_PATHS, scalarBundlePath } from './api-reference.page';
import { registerDocsRoutes } from './docs.routes';

describe('the documentation routes', () => {
  let fastify: FastifyInstance;

  beforeAll(async () => {
    fastify = Fastify();
    registerDocsRoutes(fastify);
    await fastify.ready();
  });

  afterAll(() => fastify.close());

  it('serves the HTML reference, which loads only this origin’s renderer and setup, under a same-origin CSP', async () => {
    const page = await fastify.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual([REFERENCE_PATHS.renderer, REFERENCE_PATHS.setup]);
    expect(page.body).not.toMatch(/https?:\/\//);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it('sets the renderer up on this edge’s OpenAPI document with Scalar’s hosted services off', async () => {
    const setup = await fastify.inject({ method: 'GET', url: REFERENCE_PATHS.setup });
    expect(setup.statusCode).toBe(200);
    const [, mount, json] = /createApiReference\('#([\w-]+)', (.*)\);/.exec(setup.body)!;
    // The bundle mounts an unconfigured reference of its own on #api-reference: the page must not offer it one.
    expect(mount).not.toBe('api-reference');
    expect((await fastify.inject({ method: 'GET', url: '/docs' })).body).toContain(`<div id="${mount}"></div>`);
    expect(JSON.parse(json!)).toMatchObject({
      url: '/docs/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: true,
      proxyUrl: '',
    });
  });

  it('serves its own favicon', async () => {
    const page = await fastify.inject({ method: 'GET', url: '/docs' });
    expect(page.body).toContain(`<link rel="icon" type="image/svg+xml" href="${REFERENCE_PATHS.favicon}" />`);
    const icon = await fastify.inject({ method: 'GET', url: REFERENCE_PATHS.favicon });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body).toMatch(/^<svg /);
  });

  it('serves Scalar’s standalone bundle from the installed package, gzipped when the client takes it', async () => {
    const installed = readFileSync(scalarBundlePath());
    expect(installed.length).toBeGreaterThan(1_000_000);
    const plain = await fastify.inject({ method: 'GET', url: REFERENCE_PATHS.renderer });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(installed)).toBe(true);
    const zipped = await fastify.inject({ method: 'GET', url: REFERENCE_PATHS.renderer, headers: { 'accept-encoding': 'br, gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(installed.length / 2);
    expect(gunzipSync(zipped.rawPayload).equals(installed)).toBe(true);
  }, 30_000);

  it('serves the OpenAPI document the page reads, with every built route', async () => {
    const doc = (await fastify.inject({ method: 'GET', url: REFERENCE_PATHS.document })).json<{ paths: Record<string, Record<string, unknown>> }>();
    for (const route of BUILT_ROUTES) expect(doc.paths[route.path]?.[route.method.toLowerCase()]).toBeDefined();
  });
});
