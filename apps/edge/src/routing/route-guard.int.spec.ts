import { GatewayError, SUBJECTS, type RouteDef } from '@gateway/contracts';
import { Injectable, Logger, Module } from '@nestjs/common';
import { z } from 'zod';
import { KeyResolverService } from '../auth/key-resolver.service';
import { rawRequest } from '../testing/raw-http';
import { startTestEdge, type TestEdge } from '../testing/start-test-edge';
import { MAX_JSON_DEPTH } from './json-body.parser';
import { RouteHandler } from './route-handler.decorator';
import type { RouteRequest } from './route-request';

const Body = z.object({ model: z.string() });

const ROUTES: RouteDef[] = [
  { id: 'fixture.echo', method: 'POST', path: '/oaic/v1/echo', family: 'oaic', auth: 'bearer', status: 'Stable', summary: 'e', built: true, body: Body },
  { id: 'fixture.echo', method: 'POST', path: '/msgc/v1/echo', family: 'msgc', auth: 'msgc', status: 'Stable', summary: 'e', built: true, body: Body },
  { id: 'fixture.crash', method: 'POST', path: '/oaic/v1/crash', family: 'oaic', auth: 'bearer', status: 'Stable', summary: 'c', built: true, body: Body },
];

@Injectable()
class FixtureRoutes {
  @RouteHandler('fixture.echo')
  echo(request: RouteRequest<unknown, z.infer<typeof Body>>) {
    return { model: request.body.model };
  }

  @RouteHandler('fixture.crash')
  crash(request: RouteRequest<unknown, z.infer<typeof Body>>): never {
    if (request.body.model === 'type-error') throw new TypeError('fixture handler broke');
    throw Object.assign(new GatewayError('internal', 'Internal error'), { cause: new Error('the store went away') });
  }
}

@Module({ providers: [FixtureRoutes] })
class FixtureModule {}

const MSGC = { 'msgc-version': '2023-06-01' };

/** Counts JSON.parse calls on bodies of at least `minLength` characters while `run` runs. */
async function countLargeParses(minLength: number, run: () => Promise<void>): Promise<number> {
  const parse = JSON.parse.bind(JSON);
  let count = 0;
  const spy = jest.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    if (typeof text === 'string' && text.length >= minLength) count++;
    return parse(text, reviver);
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return count;
}

describe('route guard: authentication before the body, and what the body may be', () => {
  let t: TestEdge;
  let key: string;

  beforeAll(async () => {
    t = await startTestEdge({}, { routes: ROUTES, handlerModules: [FixtureModule] });
    key = t.accounts.addKey('tenant-a').key;
  });
  afterAll(() => t.stop());

  const post = (path: string, body: string, headers: Record<string, string | string[]> = {}) =>
    rawRequest(t.edge.url, 'POST', path, { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body);

  it('refuses a request without a key before its body is parsed', async () => {
    const big = JSON.stringify({ model: 'm', items: Array.from({ length: 200_000 }, (_, i) => ({ i })) });
    let statuses: number[] = [];
    const parses = await countLargeParses(1_000_000, async () => {
      const noKey = await post('/oaic/v1/echo', big, { authorization: [] });
      const badKey = await post('/oaic/v1/echo', big, { authorization: 'Bearer sk-not-a-key' });
      statuses = [noKey.status, badKey.status];
    });
    expect(statuses).toEqual([401, 401]);
    expect(parses).toBe(0);
    // Not even malformed JSON is looked at without a key.
    expect((await post('/oaic/v1/echo', '{"model":', { authorization: [] })).status).toBe(401);
  });

  it('answers an unknown path or a wrong method before its body is parsed, naming a long path only in part', async () => {
    const big = JSON.stringify({ items: Array.from({ length: 200_000 }, (_, i) => ({ i })) });
    const statuses: number[] = [];
    const parses = await countLargeParses(1_000_000, async () => {
      for (const [method, path] of [
        ['POST', '/nope'],
        ['POST', '/readyz'],
        ['PUT', '/oaic/v1/echo'],
      ] as const) {
        statuses.push((await rawRequest(t.edge.url, method, path, { 'content-type': 'application/json' }, big)).status);
      }
    });
    expect(statuses).toEqual([404, 404, 405]);
    expect(parses).toBe(0);
    const long = await rawRequest(t.edge.url, 'GET', `/msgc/${'x'.repeat(5000)}`);
    expect(long.status).toBe(404);
    expect(JSON.parse(long.body)).toEqual({ type: 'error', error: { type: 'not_found_error', message: `Unknown route: GET /msgc/${'x'.repeat(194)}….` } });
  });

  it('refuses a repeated Authorization or x-api-key header with 400 naming it', async () => {
    const twoBearers = await post('/oaic/v1/echo', '{"model":"m"}', { authorization: [`Bearer ${key}`, 'Bearer sk-other'] });
    expect(twoBearers.status).toBe(400);
    expect(JSON.parse(twoBearers.body)).toMatchObject({
      error: { type: 'invalid_request_error', param: 'authorization', message: expect.stringContaining('authorization header appears more than once') },
    });
    const twoKeys = await post('/msgc/v1/echo', '{"model":"m"}', { authorization: [], 'x-api-key': [key, key], ...MSGC });
    expect(twoKeys.status).toBe(400);
    expect(JSON.parse(twoKeys.body)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('x-api-key') } });
  });

  it('names the Content-Type header when a JSON route gets another type', async () => {
    const text = await post('/oaic/v1/echo', '{"model":"m"}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(JSON.parse(text.body)).toMatchObject({
      error: { param: 'content-type', message: expect.stringContaining('Expected Content-Type application/json') },
    });
    const none = await post('/msgc/v1/echo', '{"model":"m"}', { authorization: [], 'x-api-key': key, ...MSGC, 'content-type': [] });
    expect(none.status).toBe(415);
    expect(JSON.parse(none.body)).toMatchObject({ type: 'error', error: { message: expect.stringContaining('no Content-Type header') } });
    const withCharset = await post('/oaic/v1/echo', '{"model":"m"}', { 'content-type': 'application/json; charset=utf-8' });
    expect(withCharset.status).toBe(200);
  });

  it('names the Content-Encoding header when the body says it is compressed, instead of reading it as plain', async () => {
    const gzip = await post('/oaic/v1/echo', '{"model":"m"}', { 'content-encoding': 'gzip' });
    expect(gzip.status).toBe(415);
    expect(JSON.parse(gzip.body)).toMatchObject({
      error: { param: 'content-encoding', message: expect.stringContaining('Content-Encoding "gzip" is not supported') },
    });
    const identity = await post('/oaic/v1/echo', '{"model":"m"}', { 'content-encoding': 'identity' });
    expect(identity.status).toBe(200);
  });

  it('says a __proto__ key is forbidden rather than "not valid JSON"', async () => {
    const res = await post('/oaic/v1/echo', '{"model":"m","__proto__":{"admin":true}}');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: { type: 'invalid_request_error', message: 'The request body contains a forbidden key __proto__.' } });
  });

  it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels with 400 in the dialect`, async () => {
    const deep = (depth: number) => `{"model":"m","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const oaic = await post('/oaic/v1/echo', deep(5000));
    expect(oaic.status).toBe(400);
    expect(JSON.parse(oaic.body)).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH} levels`) },
    });
    const msgc = await post('/msgc/v1/echo', deep(MAX_JSON_DEPTH), { authorization: [], 'x-api-key': key, ...MSGC });
    expect(msgc.status).toBe(400);
    expect(JSON.parse(msgc.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((await post('/oaic/v1/echo', deep(MAX_JSON_DEPTH - 1))).status).toBe(200);
  });

  it('logs every 500 with its cause, in the dialect for the client and without detail', async () => {
    const logged: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void logged.push(String(message)));
    try {
      const typeError = await post('/oaic/v1/crash', '{"model":"type-error"}');
      const internal = await post('/oaic/v1/crash', '{"model":"internal"}');
      expect([typeError.status, internal.status]).toEqual([500, 500]);
      expect(JSON.parse(typeError.body)).toEqual({ error: { message: 'Internal error', type: 'api_error', param: null, code: null } });
    } finally {
      spy.mockRestore();
    }
    expect(logged.some((line) => line.includes('/oaic/v1/crash') && line.includes('fixture handler broke'))).toBe(true);
    expect(logged.some((line) => line.includes('caused by: Error: the store went away'))).toBe(true);
  });
});

describe('route guard: failed authentications per client address', () => {
  let t: TestEdge;
  let key: string;
  const LIMIT = 5;
  const NEGATIVE_BOUND = 10;

  beforeAll(async () => {
    t = await startTestEdge(
      { AUTH_FAILURES_PER_MINUTE: String(LIMIT), NEGATIVE_KEY_CACHE_MAX_ENTRIES: String(NEGATIVE_BOUND) },
      { routes: ROUTES, handlerModules: [FixtureModule] },
    );
    key = t.accounts.addKey('tenant-a').key;
  });
  afterAll(() => t.stop());

  const echo = (headers: Record<string, string>) =>
    rawRequest(t.edge.url, 'POST', '/oaic/v1/echo', { 'content-type': 'application/json', ...headers }, '{"model":"m"}');

  it('answers 429 with Retry-After once an address has failed too often, without asking accounts again', async () => {
    expect((await echo({ authorization: `Bearer ${key}` })).status).toBe(200);
    const before = t.accounts.count(SUBJECTS.accounts.keys.resolve);
    const replies = [];
    for (let i = 0; i < 100; i++) replies.push(await echo({ authorization: `Bearer sk-unknown-${i}` }));
    const statuses = replies.map((reply) => reply.status);
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    const last = replies[replies.length - 1]!;
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(last.body)).toMatchObject({ error: { type: 'rate_limit_error', message: expect.stringContaining('failed authentications') } });
    expect(t.accounts.count(SUBJECTS.accounts.keys.resolve) - before).toBe(LIMIT);
    expect(t.edge.app.get(KeyResolverService).cache.size).toBeLessThanOrEqual(1 + NEGATIVE_BOUND);
  });

  it('still serves a key it knows to be valid from a blocked address, in every dialect', async () => {
    expect((await echo({ authorization: `Bearer ${key}` })).status).toBe(200);
    const msgc = await rawRequest(
      t.edge.url,
      'POST',
      '/msgc/v1/echo',
      { 'content-type': 'application/json', 'x-api-key': 'sk-guess', ...MSGC },
      '{"model":"m"}',
    );
    expect(msgc.status).toBe(429);
    expect(JSON.parse(msgc.body)).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });
});

describe('route guard: failed authentications behind a trusted proxy', () => {
  let t: TestEdge;
  let key: string;

  beforeAll(async () => {
    t = await startTestEdge({ AUTH_FAILURES_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1' }, { routes: ROUTES, handlerModules: [FixtureModule] });
    key = t.accounts.addKey('tenant-a').key;
  });
  afterAll(() => t.stop());

  const echo = (client: string, authorization: string) =>
    rawRequest(t.edge.url, 'POST', '/oaic/v1/echo', { 'content-type': 'application/json', 'x-forwarded-for': client, authorization }, '{"model":"m"}');

  it('counts failures per forwarded client address, so one client does not lock out the others behind the proxy', async () => {
    const flood = [];
    for (let i = 0; i < 5; i++) flood.push((await echo('203.0.113.7', `Bearer sk-guess-${i}`)).status);
    expect(flood).toEqual([401, 401, 429, 429, 429]);
    expect((await echo('198.51.100.2', 'Bearer sk-typo')).status).toBe(401);
    const fresh = t.accounts.addKey('tenant-b').key;
    expect((await echo('198.51.100.2', `Bearer ${fresh}`)).status).toBe(200);
    // A valid key this replica has not seen yet is not looked up for a blocked client either.
    expect((await echo('203.0.113.7', `Bearer ${key}`)).status).toBe(429);
  });
});
