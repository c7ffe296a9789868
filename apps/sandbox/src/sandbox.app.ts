// Builds the sandbox upstream: a plain Fastify server (no Nest: it is also the benchmark baseline) with
// every protocol mounted under its prefix, plus the /_sandbox control routes (stats, generated files, holds).
import multipart from '@fastify/multipart';
import { ProcessStatsProbe } from '@gateway/contracts';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Exchange } from './core/exchange';
import { FileShelf } from './core/file-shelf';
import { Hold, Holds } from './core/holds';
import { SandboxStats } from './core/stats';
import { PROTOCOLS } from './protocols';

export interface SandboxAppOptions {
  latencyMs?: number;
  chunkDelayMs?: number;
  logLevel?: string;
}

// Gateways forward large inline images (data URLs of 10 MB and more).
const BODY_LIMIT = 64 * 1024 * 1024;

export interface SandboxApp {
  app: FastifyInstance;
  stats: SandboxStats;
}

export async function buildSandboxApp(options: SandboxAppOptions = {}): Promise<SandboxApp> {
  const app = Fastify({
    logger: options.logLevel && options.logLevel !== 'silent' ? { level: options.logLevel } : false,
    // A line per request is the upstream's traffic, not the gateway's: kept for LOG_LEVEL=debug.
    logController: new LogController({ disableRequestLogging: options.logLevel !== 'debug' }),
    bodyLimit: BODY_LIMIT,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Hung calls are part of the simulation; closing the server must not wait for them.
    forceCloseConnections: true,
    keepAliveTimeout: 65_000,
  });
  const stats = new SandboxStats();
  const exchange = new Exchange(stats, { latencyMs: options.latencyMs ?? 0, chunkDelayMs: options.chunkDelayMs ?? 0 });
  const files = new FileShelf();
  const holds = new Holds();

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(multipart, { limits: { fileSize: 25 * 1024 * 1024 } });

  app.get('/_sandbox/stats', async () => stats.snapshot());
  // The sandbox has no NATS connection: its process stats (the same shape every app gives) are read here.
  const probe = new ProcessStatsProbe('sandbox');
  app.addHook('onClose', async () => probe.stop());
  app.get<{ Querystring: { gc?: string } }>('/_sandbox/process', async (request) => probe.read({ collectGarbage: request.query.gc === '1' }));
  app.post('/_sandbox/stats/reset', async () => {
    stats.reset();
    return { ok: true };
  });
  app.get<{ Params: { name: string } }>('/_sandbox/files/:name', async (request, reply) => {
    const file = files.get(request.params.name);
    if (!file) return reply.code(404).send({ error: 'not found' });
    return reply.header('content-type', file.contentType).send(file.bytes);
  });
  app.get('/_sandbox/holds', async () => ({ holds: holds.list() }));
  app.put('/_sandbox/holds', async (request, reply) => {
    const hold = Hold.safeParse(request.body);
    if (!hold.success) return reply.code(400).send({ error: z.prettifyError(hold.error) });
    holds.set(hold.data);
    return hold.data;
  });
  app.delete<{ Params: { prefix: string } }>('/_sandbox/holds/:prefix', async (request) => ({ lifted: holds.lift(request.params.prefix) }));
  app.get('/healthz', async () => ({ status: 'ok' }));

  for (const protocol of PROTOCOLS) {
    await app.register(protocol.plugin, { prefix: protocol.prefix, exchange, files, holds });
  }
  return { app, stats };
}
