/**
 * A service's operational listener on METRICS_PORT: `/healthz` (the process answers), `/readyz` (its
 * dependencies answer and it is not draining) and `/metrics` (Prometheus text). Plain node:http: it
 * must answer while the service's own work is stuck.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scrapeMetrics, metricsRegistry } from './metrics';

/** A readiness check resolves when its dependency answers, and rejects with why not. */
export type ReadinessCheck = () => Promise<void>;

export interface OpsServerOptions {
  host: string;
  port: number;
  checks: Record<string, ReadinessCheck>;
}

export interface OpsServer {
  port: number;
  /** From now on /readyz answers 503: the process is shutting down. */
  drain(): void;
  close(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2000;

function withTimeout(check: ReadinessCheck): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
    check().then(
      () => (clearTimeout(timer), resolve()),
      (error: Error) => (clearTimeout(timer), reject(error)),
    );
  });
}

export async function readiness(checks: Record<string, ReadinessCheck>): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const names = Object.keys(checks);
  const results = await Promise.allSettled(names.map((name) => withTimeout(checks[name]!)));
  const states = Object.fromEntries(
    names.map((name, i) => [name, results[i]!.status === 'fulfilled' ? 'ok' : (results[i] as PromiseRejectedResult).reason?.message || 'failed']),
  );
  return { ready: results.every((r) => r.status === 'fulfilled'), checks: states };
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  let draining = false;
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') return json(res, 405, { error: 'GET only' });
    if (path === '/healthz') return json(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      if (draining) return json(res, 503, { status: 'draining' });
      void readiness(options.checks).then((state) =>
        json(res, state.ready ? 200 : 503, { status: state.ready ? 'ready' : 'unavailable', checks: state.checks }),
      );
      return;
    }
    if (path === '/metrics') {
      void scrapeMetrics().then(
        (text) => {
          res.writeHead(200, { 'content-type': metricsRegistry.contentType });
          res.end(text);
        },
        (error: Error) => json(res, 500, { error: error.message }),
      );
      return;
    }
    json(res, 404, { error: `no route ${path}` });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    drain: () => {
      draining = true;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
