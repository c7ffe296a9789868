import { request } from 'undici';
import { gatewayMetrics } from './metrics';
import { startOpsServer, type OpsServer } from './ops-server';
import { redisCheck } from './readiness-checks';

async function get(url: string): Promise<{ status: number; body: string }> {
  const response = await request(url);
  return { status: response.statusCode, body: await response.body.text() };
}

describe('the operational listener', () => {
  let ops: OpsServer;
  let base: string;
  let postgresUp = true;

  beforeAll(async () => {
    ops = await startOpsServer({
      host: '127.0.0.1',
      port: 0,
      checks: {
        redis: redisCheck('redis://127.0.0.1:6379'),
        postgres: async () => {
          if (!postgresUp) throw new Error('ECONNREFUSED');
        },
      },
    });
    base = `http://127.0.0.1:${ops.port}`;
  });

  afterAll(() => ops.close());

  it('answers /healthz while the process lives, /readyz by its dependencies, /metrics in Prometheus text', async () => {
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: '{"status":"ok"}' });
    const ready = await get(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready', checks: { redis: 'ok', postgres: 'ok' } });

    postgresUp = false;
    const unready = await get(`${base}/readyz`);
    expect(unready.status).toBe(503);
    expect(JSON.parse(unready.body)).toEqual({ status: 'unavailable', checks: { redis: 'ok', postgres: 'ECONNREFUSED' } });
    postgresUp = true;

    gatewayMetrics.tokens.inc({ model: 'm-1', direction: 'input', tenant: '' }, 7);
    const metrics = await get(`${base}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('gateway_tokens_total{model="m-1",direction="input",tenant=""} 7');
  });

  it('reports not-ready once draining, and stays alive', async () => {
    ops.drain();
    expect(await get(`${base}/readyz`)).toEqual({ status: 503, body: '{"status":"draining"}' });
    expect((await get(`${base}/healthz`)).status).toBe(200);
  });
});
