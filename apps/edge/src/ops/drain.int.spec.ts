import { type RouteDef } from '@gateway/contracts';
import { Injectable, Module } from '@nestjs/common';
import net from 'node:net';
import { request } from 'undici';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { startTestEdge, type TestEdge } from '../testing/start-test-edge';

const ROUTES: RouteDef[] = [
  { id: 'fixture.stream', method: 'GET', path: '/oaic/v1/stream', family: 'oaic', auth: 'bearer', status: 'Stable', summary: 's', built: true },
];
const EVENTS = 6;
const GAP_MS = 150;

@Injectable()
class StreamRoutes {
  /** An SSE reply on a keep-alive connection, as the relay writes it. */
  @RouteHandler('fixture.stream')
  async stream(request: RouteRequest): Promise<undefined> {
    const raw = request.reply.hijack().raw;
    raw.writeHead(200, { 'content-type': 'text/event-stream', connection: 'keep-alive' });
    for (let i = 0; i < EVENTS; i++) {
      raw.write(`data: ${i}\n\n`);
      await new Promise((resolve) => setTimeout(resolve, GAP_MS));
    }
    raw.end('data: [DONE]\n\n');
    return undefined;
  }
}

@Module({ providers: [StreamRoutes] })
class StreamModule {}

function connects(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) }, () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('the edge drain', () => {
  let t: TestEdge;

  beforeAll(async () => {
    t = await startTestEdge({}, { routes: ROUTES, handlerModules: [StreamModule] });
  });
  afterAll(() => t.stop());

  it('lets open streams finish, refuses new connections, and ends as soon as they are done', async () => {
    const key = t.accounts.addKey('tenant-a').key;
    const streams = await Promise.all(
      Array.from({ length: 20 }, () => request(`${t.edge.url}/oaic/v1/stream`, { headers: { authorization: `Bearer ${key}` } })),
    );
    const bodies = Promise.all(streams.map((s) => s.body.text()));
    const started = Date.now();
    const closed = t.edge.close(10_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await connects(t.edge.url)).toBe(false);
    expect((await bodies).every((body) => body.endsWith('data: [DONE]\n\n'))).toBe(true);
    await closed;
    expect(Date.now() - started).toBeLessThan(EVENTS * GAP_MS + 1500);
  });
});
