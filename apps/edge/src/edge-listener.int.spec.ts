import { type RouteDef } from '@gateway/contracts';
import { Injectable, Module } from '@nestjs/common';
import { z } from 'zod';
import { RouteHandler } from './routing/route-handler.decorator';
import type { RouteRequest } from './routing/route-request';
import { rawConnection, rawRequest } from './testing/raw-http';
import { startTestEdge, type TestEdge } from './testing/start-test-edge';

const ROUTES: RouteDef[] = [
  {
    id: 'fixture.echo',
    method: 'POST',
    path: '/oaic/v1/echo',
    family: 'oaic',
    auth: 'bearer',
    status: 'Stable',
    summary: 'e',
    built: true,
    body: z.object({ model: z.string() }),
  },
  { id: 'fixture.slow', method: 'GET', path: '/oaic/v1/slow-stream', family: 'oaic', auth: 'bearer', status: 'Stable', summary: 's', built: true },
  { id: 'fixture.item', method: 'GET', path: '/oaic/v1/items/{item_id}', family: 'oaic', auth: 'bearer', status: 'Stable', summary: 'i', built: true },
  { id: 'fixture.item', method: 'GET', path: '/msgc/v1/items/{item_id}', family: 'msgc', auth: 'msgc', status: 'Stable', summary: 'i', built: true },
  {
    id: 'fixture.msgc',
    method: 'POST',
    path: '/msgc/v1/echo',
    family: 'msgc',
    auth: 'msgc',
    status: 'Stable',
    summary: 'm',
    built: true,
    body: z.object({ model: z.string() }),
  },
];

const STREAM_CHUNKS = 8;
const STREAM_GAP_MS = 150;

@Injectable()
class FixtureRoutes {
  @RouteHandler('fixture.echo')
  echo(request: RouteRequest<unknown, { model: string }>) {
    return { model: request.body.model };
  }

  /** Streams for longer than the request timeout: the request is in, so the reply must not be cut. */
  @RouteHandler('fixture.slow')
  async slow(request: RouteRequest): Promise<undefined> {
    const raw = request.reply.hijack().raw;
    raw.writeHead(200, { 'content-type': 'text/plain' });
    for (let i = 0; i < STREAM_CHUNKS; i++) {
      raw.write(`chunk ${i}\n`);
      await new Promise((resolve) => setTimeout(resolve, STREAM_GAP_MS));
    }
    raw.end();
    return undefined;
  }

  @RouteHandler('fixture.item')
  item(request: RouteRequest) {
    return { id: request.params.item_id };
  }

  @RouteHandler('fixture.msgc')
  msgc(request: RouteRequest<unknown, { model: string }>) {
    return { model: request.body.model };
  }
}

@Module({ providers: [FixtureRoutes] })
class FixtureModule {}

describe('public listener timeouts', () => {
  let t: TestEdge;
  let key: string;

  beforeAll(async () => {
    t = await startTestEdge(
      { HTTP_HEADERS_TIMEOUT_SECONDS: '0.3', HTTP_REQUEST_TIMEOUT_SECONDS: '0.6', HTTP_IDLE_TIMEOUT_SECONDS: '3', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '0.3' },
      { routes: ROUTES, handlerModules: [FixtureModule] },
    );
    key = t.accounts.addKey('tenant-a').key;
  });
  afterAll(() => t.stop());

  it('closes a connection that sends nothing after the headers timeout', async () => {
    const connection = await rawConnection(t.edge.url);
    const closedAfter = await connection.closedWithin(3000);
    expect(closedAfter).not.toBeNull();
    expect(closedAfter!).toBeLessThan(1500);
  });

  it('closes a connection that sends partial headers, answering 408 in the default dialect', async () => {
    const connection = await rawConnection(t.edge.url);
    connection.socket.write('POST /oaic/v1/echo HTTP/1.1\r\nHost: localhost\r\nAuthorization: ');
    const closedAfter = await connection.closedWithin(3000);
    expect(closedAfter).not.toBeNull();
    expect(closedAfter!).toBeLessThan(1500);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(connection.received()).toContain('"type":"invalid_request_error"');
  });

  it('closes a connection that sends its headers and part of its body after the request timeout', async () => {
    const connection = await rawConnection(t.edge.url);
    connection.socket.write(
      `POST /oaic/v1/echo HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":`,
    );
    const closedAfter = await connection.closedWithin(4000);
    expect(closedAfter).not.toBeNull();
    expect(closedAfter!).toBeLessThan(2000);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const connection = await rawConnection(t.edge.url);
    const body = '{"model":"m"}';
    connection.socket.write(
      `POST /oaic/v1/echo HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const closedAfter = await connection.closedWithin(4000);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfter).not.toBeNull();
    expect(closedAfter!).toBeLessThan(2000);
  });

  it('does not cut a streamed reply that outlasts the request timeout', async () => {
    const res = await rawRequest(t.edge.url, 'GET', '/oaic/v1/slow-stream', { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(res.body.split('\n').filter(Boolean)).toHaveLength(STREAM_CHUNKS);
  });
});

describe('HTTP-layer refusals in the dialect of the path', () => {
  let t: TestEdge;
  let key: string;

  beforeAll(async () => {
    t = await startTestEdge({}, { routes: ROUTES, handlerModules: [FixtureModule] });
    key = t.accounts.addKey('tenant-a').key;
  });
  afterAll(() => t.stop());

  it('answers headers too large with 431 in the dialect', async () => {
    const res = await rawRequest(
      t.edge.url,
      'POST',
      '/msgc/v1/echo',
      { 'x-api-key': key, 'msgc-version': '2023-06-01', 'x-padding': 'p'.repeat(20_000) },
      '{}',
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('headers are too large') },
    });
  });

  it('answers a URL longer than the header limit with 414 in the dialect, without echoing it', async () => {
    const marker = 'echo-me-not-'.repeat(2000);
    const res = await rawRequest(t.edge.url, 'GET', `/msgc/v1/${marker}`, { 'x-api-key': key });
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(res.body).not.toContain('echo-me-not');
  });

  it('answers an over-long path parameter with 414 in the dialect, without echoing it', async () => {
    const res = await rawRequest(t.edge.url, 'GET', `/oaic/v1/items/${'z'.repeat(300)}`, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('too long') } });
    expect(res.body).not.toContain('zzzz');
  });

  it('answers a malformed percent-encoding in the path with 400 in the dialect, without echoing it', async () => {
    const res = await rawRequest(t.edge.url, 'GET', '/msgc/v1/items/%E0%A4%A', { 'x-api-key': key });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('percent-encoding') } });
    expect(res.body).not.toContain('%E0');
  });

  it('answers a wrong method on a known path with 405 and Allow, in the dialect', async () => {
    const oaic = await rawRequest(t.edge.url, 'GET', '/oaic/v1/echo', { authorization: `Bearer ${key}` });
    expect(oaic.status).toBe(405);
    expect(oaic.headers.allow).toBe('POST');
    expect(JSON.parse(oaic.body)).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('POST') } });
    const msgc = await rawRequest(t.edge.url, 'DELETE', '/msgc/v1/echo', { 'x-api-key': key });
    expect(msgc.status).toBe(405);
    expect(JSON.parse(msgc.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const get = await rawRequest(t.edge.url, 'POST', '/oaic/v1/slow-stream', { authorization: `Bearer ${key}` }, '{}');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('GET, HEAD');
  });
});
