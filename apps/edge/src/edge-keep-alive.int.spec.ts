import { type RouteDef } from '@gateway/contracts';
import { Injectable, Module } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { RouteHandler } from './routing/route-handler.decorator';
import type { RouteRequest } from './routing/route-request';
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
];

@Injectable()
class EchoRoutes {
  @RouteHandler('fixture.echo')
  echo(request: RouteRequest<unknown, { model: string }>) {
    return { model: request.body.model };
  }
}

@Module({ providers: [EchoRoutes] })
class EchoModule {}

const CONCURRENT = 60;
/** Idle pauses between rounds, in seconds, up to half of a proxy's usual 60 s idle timeout. */
const PAUSES = [4, 6, 10, 30];

/**
 * A proxy in front keeps its pooled connections to the edge for as long as its own idle timeout says
 * and sends on them after any pause shorter than that: the edge, with the default keep-alive, must keep
 * them open, or requests sent as it closes one are lost ("other side closed").
 */
describe('keep-alive of the public listener, as a proxy in front uses it', () => {
  let t: TestEdge;
  let key: string;
  let opened = 0;
  // A proxy's pool: keeps idle connections a minute whatever the edge's Keep-Alive header says.
  const pool = new Agent({ connections: CONCURRENT, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000, keepAliveTimeoutThreshold: 1000 });

  beforeAll(async () => {
    t = await startTestEdge({}, { routes: ROUTES, handlerModules: [EchoModule] });
    key = t.accounts.addKey('tenant-a').key;
    t.edge.app.getHttpServer().on('connection', () => opened++);
  });
  afterAll(async () => {
    await pool.close();
    await t.stop();
  });

  async function round(): Promise<Array<number | string>> {
    return Promise.all(
      Array.from({ length: CONCURRENT }, async () => {
        try {
          const response = await request(`${t.edge.url}/oaic/v1/echo`, {
            method: 'POST',
            dispatcher: pool,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: '{"model":"m"}',
          });
          await response.body.dump();
          return response.statusCode;
        } catch (error) {
          return (error as Error).message;
        }
      }),
    );
  }

  it('answers every request sent on pooled connections after idle pauses of 4, 6, 10 and 30 s', async () => {
    expect(await round()).toEqual(Array(CONCURRENT).fill(200));
    const pooled = opened;
    expect(pooled).toBeGreaterThan(0);
    for (const seconds of PAUSES) {
      await sleep(seconds * 1000);
      expect({ pause: seconds, statuses: await round() }).toEqual({ pause: seconds, statuses: Array(CONCURRENT).fill(200) });
    }
    // Every round rode the connections of the first: none was closed under the pool while idle.
    expect(opened).toBe(pooled);
  }, 90_000);
});
