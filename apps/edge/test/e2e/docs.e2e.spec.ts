/** The route index and the OpenAPI document, checked against the route tables of the interface spec. */
import { BUILT_ROUTES, ROUTES } from '@gateway/contracts';
import { z } from 'zod';
import { e2eEnv, http } from './support/gateway';
import { loadSpecRoutes, normalizePath, parseSpecRoutes } from './support/spec-routes';

const Entry = z.object({
  method: z.string(),
  path: z.string(),
  family: z.string(),
  auth: z.string(),
  status: z.enum(['Stable', 'Beta', 'Pass-through']),
  summary: z.string(),
});
const RouteIndex = z.object({ total: z.number().int(), routes: z.array(Entry), planned: z.array(Entry) });
type Entry = z.infer<typeof Entry>;

const key = (e: { method: string; path: string }) => `${e.method} ${normalizePath(e.path)}`;

describe('published route documents', () => {
  let index: z.infer<typeof RouteIndex>;

  beforeAll(async () => {
    const res = await http('GET', `${e2eEnv().GW_E2E_BASE_URL}/docs/api-endpoints.json`);
    expect(res.status).toBe(200);
    index = RouteIndex.parse(res.body);
  });

  it('reads the spec tables (sanity of the parser itself)', () => {
    const spec = loadSpecRoutes();
    expect(spec.routes).toContain('GET /oaic/v1/models');
    expect(spec.routes).toContain('POST /oaic/v1/embeddings');
    expect(spec.routes).toContain('POST /msgc/v1/messages/count_tokens');
    expect(spec.routes).toContain('POST /genc/v1beta/models/{}:streamGenerateContent');
    expect(spec.routes).toContain('GET /music/query/task');
    expect(spec.anyMethod).toContain('/oaic/v1/threads/{}/runs');
    expect(parseSpecRoutes('## 3. States\n| GET | `/x` |\n').routes.size).toBe(0);
  });

  it('lists every built route with its status label, and the rest as planned', () => {
    expect(index.total).toBe(index.routes.length + index.planned.length);
    const listed = new Map(index.routes.map((e) => [`${e.method} ${e.path}`, e] as const));
    for (const route of BUILT_ROUTES) {
      expect(listed.get(`${route.method} ${route.path}`)).toMatchObject({ status: route.status, family: route.family });
    }
    expect(index.routes).toHaveLength(BUILT_ROUTES.length);
    const everything = new Set([...index.routes, ...index.planned].map((e) => `${e.method} ${e.path}`));
    for (const route of ROUTES) expect(everything).toContain(`${route.method} ${route.path}`);
    const builtKeys = new Set(index.routes.map(key));
    for (const planned of index.planned) expect(builtKeys).not.toContain(key(planned));
  });

  it('covers every route of the spec tables, built or planned', () => {
    const listed = new Set([...index.routes, ...index.planned].map(key));
    const missing = [...loadSpecRoutes().routes].filter((route) => !listed.has(route));
    expect(missing).toEqual([]);
  });

  it('lists nothing that is not a spec route or its /v1 alias', () => {
    const spec = loadSpecRoutes();
    const isSpec = (e: Entry) => {
      const k = key(e);
      if (spec.routes.has(k) || spec.anyMethod.has(normalizePath(e.path))) return true;
      return e.path.startsWith('/v1/') && spec.routes.has(`${e.method} ${normalizePath(`/oaic${e.path}`)}`);
    };
    expect([...index.routes, ...index.planned].filter((e) => !isSpec(e)).map(key)).toEqual([]);
  });

  it('labels the Beta and Pass-through routes as the spec does', () => {
    const all = [...index.routes, ...index.planned];
    expect(all.find((e) => e.method === 'GET' && e.path === '/oaic/v1/responses/{response_id}')?.status).toBe('Beta');
    const passThrough = all.filter((e) => loadSpecRoutes().anyMethod.has(normalizePath(e.path)));
    expect(passThrough.length).toBeGreaterThan(0);
    for (const e of passThrough) expect(e.status).toBe('Pass-through');
    expect(all.find((e) => e.path === '/oaic/v1/models')).toMatchObject({ status: 'Stable', auth: expect.stringContaining('Bearer') });
    expect(all.find((e) => e.path === '/msgc/v1/models')).toMatchObject({ auth: expect.stringContaining('x-api-key') });
  });

  it('serves an OpenAPI 3.1 document with every built path and method, each with its answer and its error', async () => {
    const res = await http('GET', `${e2eEnv().GW_E2E_BASE_URL}/docs/openapi.json`);
    expect(res.status).toBe(200);
    const Answer = z.object({ content: z.record(z.string(), z.object({ schema: z.unknown() })) });
    const Operation = z.object({ responses: z.object({ '200': Answer, default: Answer }) });
    const doc = z.object({ openapi: z.string(), paths: z.record(z.string(), z.record(z.string(), z.unknown())) }).parse(res.body);
    expect(doc.openapi).toMatch(/^3\.1(\.\d+)?$/);
    for (const route of BUILT_ROUTES) {
      const operation = Operation.safeParse(doc.paths[route.path]?.[route.method.toLowerCase()]);
      const types = operation.success ? Object.keys(operation.data.responses['200'].content).length : 0;
      expect({ route: `${route.method} ${route.path}`, documented: types > 0 }).toEqual({ route: `${route.method} ${route.path}`, documented: true });
    }
  });

  it('serves the HTML reference at /docs: its scripts from this origin, reading this document', async () => {
    const base = e2eEnv().GW_E2E_BASE_URL;
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const scripts = [...(await page.text()).matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(['/docs/scalar.js', '/docs/reference.js']);
    const [renderer, setup] = await Promise.all(scripts.map((src) => fetch(`${base}${src}`)));
    expect(renderer!.status).toBe(200);
    expect((await renderer!.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
    expect(await setup!.text()).toContain('"url":"/docs/openapi.json"');
  });
});
