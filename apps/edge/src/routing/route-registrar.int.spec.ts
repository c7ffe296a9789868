import { GatewayError, type RouteDef } from '@gateway/contracts';
import { Injectable, Module } from '@nestjs/common';
import { z } from 'zod';
import { EdgeEnv } from '../config/edge-env';
import { createEdgeApp } from '../edge.app';
import { FakeAccounts } from '../testing/fake-accounts';
import { ensureTestSigningSecret, startTestEdge, type TestEdge } from '../testing/start-test-edge';
import { RouteHandler } from './route-handler.decorator';
import type { RouteRequest } from './route-request';

const EchoBody = z.object({ model: z.string(), n: z.number().int().optional() });

const FIXTURE_ROUTES: RouteDef[] = [
  { id: 'fixture.echo', method: 'POST', path: '/oaic/v1/echo', family: 'oaic', auth: 'bearer', status: 'Stable', summary: 'echo', built: true, body: EchoBody },
  { id: 'fixture.echo', method: 'POST', path: '/msgc/v1/echo', family: 'msgc', auth: 'msgc', status: 'Stable', summary: 'echo', built: true, body: EchoBody },
  {
    id: 'fixture.model',
    method: 'POST',
    path: '/genc/v1beta/models/{model}:generateContent',
    family: 'genc',
    auth: 'bearer',
    status: 'Stable',
    summary: 'g',
    built: true,
  },
  {
    id: 'fixture.model',
    method: 'POST',
    path: '/genc/v1beta/models/{model}:streamGenerateContent',
    family: 'genc',
    auth: 'bearer',
    status: 'Stable',
    summary: 's',
    built: true,
  },
  // An id whose body goes by claim check: it takes the relayed limit, not one bus message.
  { id: 'msgc.messages', method: 'POST', path: '/msgc/v1/big', family: 'msgc', auth: 'msgc', status: 'Stable', summary: 'big', built: true, body: EchoBody },
  { id: 'fixture.limited', method: 'GET', path: '/music/limited', family: 'music', auth: 'bearer', status: 'Stable', summary: 'l', built: true },
  { id: 'fixture.unbuilt', method: 'GET', path: '/dsc/v1/later', family: 'dsc', auth: 'bearer', status: 'Stable', summary: 'u', built: false },
];

@Injectable()
class FixtureRoutes {
  @RouteHandler('fixture.echo')
  echo(request: RouteRequest<unknown, z.infer<typeof EchoBody>>) {
    return { model: request.body.model, tenant: request.key.tenantId };
  }

  @RouteHandler('msgc.messages')
  big(request: RouteRequest<unknown, z.infer<typeof EchoBody>>) {
    return { model: request.body.model };
  }

  @RouteHandler('fixture.model')
  model(request: RouteRequest) {
    return { model: request.params.model, route: request.route.path, alt: (request.query as { alt?: string }).alt ?? null };
  }

  @RouteHandler('fixture.limited')
  limited(): never {
    throw new GatewayError('rate_limited', 'slow down', null, null, 7);
  }

  @RouteHandler('fixture.unbuilt')
  unbuilt() {
    return { never: true };
  }
}

@Module({ providers: [FixtureRoutes] })
class FixtureModule {}

describe('route registrar: pipeline and HTTP-layer errors', () => {
  let t: TestEdge;
  let key: string;

  beforeAll(async () => {
    t = await startTestEdge({}, { routes: FIXTURE_ROUTES, handlerModules: [FixtureModule] });
    key = t.accounts.addKey('tenant-a').key;
  });
  afterAll(() => t.stop());

  const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(t.edge.url + path, { method: 'POST', body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers } });

  it('parses the JSON body with the route schema and calls the handler', async () => {
    const res = await post('/oaic/v1/echo', JSON.stringify({ model: 'm1' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ model: 'm1', tenant: 'tenant-a' });
  });

  it('names the field a body is missing, in the dialect', async () => {
    const res = await post('/oaic/v1/echo', JSON.stringify({ n: 1 }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'model', message: expect.stringContaining('model') } });
    const msgc = await post('/msgc/v1/echo', JSON.stringify({ model: 3 }), { authorization: '', 'x-api-key': key, 'msgc-version': '2023-06-01' });
    expect(msgc.status).toBe(400);
    expect(await msgc.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('model') } });
  });

  it('answers malformed JSON with 400, an unsupported content type with 415, an oversized body with 413', async () => {
    const bad = await post('/oaic/v1/echo', '{"model":');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    const xml = await post('/msgc/v1/echo', '<x/>', { 'content-type': 'text/xml', 'x-api-key': key, 'msgc-version': '2023-06-01' });
    expect(xml.status).toBe(415);
    expect(await xml.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const huge = await post('/oaic/v1/echo', Buffer.alloc(33 * 1024 * 1024, 0x20)).catch((error: Error) => error);
    if (huge instanceof Error) throw huge;
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('accepts a 10 MB JSON body where it goes by claim check, and refuses it where it would travel in one bus message', async () => {
    const body = JSON.stringify({ model: 'big', pad: 'x'.repeat(10 * 1024 * 1024) });
    const relayed = await post('/msgc/v1/big', body, { authorization: '', 'x-api-key': key, 'msgc-version': '2023-06-01' });
    expect(relayed.status).toBe(200);
    const bus = await post('/oaic/v1/echo', body);
    expect(bus.status).toBe(413);
    expect(await bus.json()).toMatchObject({ error: { code: 'payload_too_large', message: expect.stringContaining('(EDGE_BUS_BODY_MAX_BYTES)') as string } });
  });

  it('routes both genc verbs and extracts the model', async () => {
    const generate = await post('/genc/v1beta/models/gem-1.5:generateContent', '{}');
    expect(await generate.json()).toEqual({ model: 'gem-1.5', route: '/genc/v1beta/models/{model}:generateContent', alt: null });
    const stream = await post('/genc/v1beta/models/gem-1.5:streamGenerateContent?alt=sse', '{}');
    expect(await stream.json()).toEqual({ model: 'gem-1.5', route: '/genc/v1beta/models/{model}:streamGenerateContent', alt: 'sse' });
    const other = await post('/genc/v1beta/models/gem-1.5:embedContent', '{}');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND' } });
  });

  it('sends Retry-After and the music code as status', async () => {
    const res = await fetch(`${t.edge.url}/music/limited`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(430);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ code: 430, msg: 'slow down', data: null });
  });

  it('does not register routes that are not built', async () => {
    const res = await fetch(`${t.edge.url}/dsc/v1/later`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NotFound' });
  });
});

describe('route registrar: start-up checks', () => {
  const env = () => {
    ensureTestSigningSecret();
    return EdgeEnv.parse({ NATS_PREFIX: FakeAccounts.prefix(), PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'error' });
  };

  it('refuses to start when a built route has no handler', async () => {
    const routes = FIXTURE_ROUTES.map((r) => (r.id === 'fixture.limited' ? { ...r, id: 'fixture.nobody' } : r));
    await expect(createEdgeApp(env(), { routes, handlerModules: [FixtureModule] })).rejects.toThrow(/fixture.nobody.*no @RouteHandler|names no route/);
  });

  it('refuses to start when a handler names no route', async () => {
    const routes = FIXTURE_ROUTES.filter((r) => r.id !== 'fixture.limited');
    await expect(createEdgeApp(env(), { routes, handlerModules: [FixtureModule] })).rejects.toThrow("@RouteHandler('fixture.limited') names no route");
  });

  it('serves the contract route table with the default handler modules', async () => {
    const edge = await createEdgeApp(env());
    const index = (await (await fetch(`${edge.url}/docs/api-endpoints.json`)).json()) as { routes: { path: string }[] };
    expect(index.routes.length).toBeGreaterThanOrEqual(5);
    await edge.close();
  });
});
