import 'reflect-metadata';
import { GatewayError, ROUTES, type RouteDef } from '@gateway/contracts';
import { connectNats, logLevels, NatsBus } from '@gateway/platform';
import { Logger, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { createAdminServer } from './admin/admin-server';
import type { EdgeEnv } from './config/edge-env';
import { EdgeModule } from './edge.module';
import { familyOfPath, toGatewayError } from './errors/error-dialect';
import { sendError } from './errors/error-reply';
import { HANDLER_MODULES } from './handler-modules';
import { HttpMetrics } from './ops/http-metrics';
import { registerOpsRoutes } from './ops/ops-routes';
import { ReadinessService } from './ops/readiness.service';
import { EdgeFastifyAdapter } from './routing/edge-fastify.adapter';
import './routing/route-config';
import { RouteRegistrar } from './routing/route-registrar.service';

/** Chat requests carry inline images and long prompts: 10 MB and more must pass. */
const BODY_LIMIT = 32 * 1024 * 1024;

export interface EdgeAppOptions {
  /** Reuse a connection (tests); otherwise the edge connects to env.NATS_URL and drains it on close. */
  connection?: NatsConnection;
  handlerModules?: readonly Type[];
  /** The route table to serve; the contract's by default (tests serve fixtures). */
  routes?: readonly RouteDef[];
}

export interface EdgeApp {
  app: NestFastifyApplication;
  admin: FastifyInstance;
  bus: NatsBus;
  /** Base URLs of the public and admin listeners, once started. */
  url: string;
  adminUrl: string;
  close(): Promise<void>;
}

/** Always the server's own id: a client's x-request-id is only echoed (routing/request-id.ts), never a key. */
function requestIdOf(): string {
  return randomUUID();
}

function familyOf(request: FastifyRequest) {
  return request.routeOptions.config?.family ?? familyOfPath(request.url);
}

function installErrorHandlers(fastify: FastifyInstance, logger: Logger): void {
  fastify.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return sendError(reply, familyOfPath(request.url), GatewayError.notFound(`Unknown route: ${request.method} ${path}.`));
  });
  fastify.setErrorHandler((error, request, reply) => {
    const mapped = toGatewayError(error);
    if (mapped.code === 'internal' && !(error instanceof GatewayError)) logger.error(`${request.method} ${request.url}: ${(error as Error).stack ?? String(error)}`);
    return sendError(reply, familyOf(request), mapped);
  });
}

function baseUrl(address: string | { address: string; port: number } | null): string {
  if (address === null || typeof address === 'string') return String(address);
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Builds and starts the edge: the public listener (Nest on Fastify, routes from the route table) and
 * the admin listener. Used by main.ts and by tests, which pass port 0 and their own NATS prefix.
 */
export async function createEdgeApp(env: EdgeEnv, options: EdgeAppOptions = {}): Promise<EdgeApp> {
  const logger = new Logger('edge');
  const ownConnection = options.connection === undefined;
  const connection = options.connection ?? (await connectNats(env.NATS_URL, 'edge'));
  const bus = new NatsBus(connection, env.NATS_PREFIX);

  const fastify = Fastify({ logger: false, bodyLimit: BODY_LIMIT, genReqId: requestIdOf, return503OnClosing: true });
  const metrics = new HttpMetrics();
  metrics.install(fastify);
  installErrorHandlers(fastify, logger);

  const module = EdgeModule.forRoot(env, bus, options.handlerModules ?? HANDLER_MODULES);
  const admin = createAdminServer(bus, env.ADMIN_TOKEN);
  let app: NestFastifyApplication | undefined;
  let count: number;
  try {
    app = await NestFactory.create<NestFastifyApplication>(module, new EdgeFastifyAdapter(fastify), {
      logger: logLevels(env.LOG_LEVEL),
      bodyParser: false,
      abortOnError: false,
    });
    await app.init();
    registerOpsRoutes(fastify, app.get(ReadinessService), metrics);
    count = app.get(RouteRegistrar).register(fastify, options.routes ?? ROUTES);
    await app.listen(env.PORT, env.HOST);
    await admin.listen({ port: env.ADMIN_PORT, host: env.ADMIN_HOST });
  } catch (error) {
    // A failed start leaves nothing behind: no listener, no subscription, no connection we opened.
    await app?.close().catch(() => undefined);
    await admin.close().catch(() => undefined);
    if (ownConnection) await connection.close();
    throw error;
  }
  const started = app;
  const url = baseUrl(fastify.server.address());
  const adminUrl = baseUrl(admin.server.address());
  logger.debug(`${count} public routes registered`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await Promise.allSettled([started.close(), admin.close()]);
      if (ownConnection) await connection.drain().catch(() => undefined);
    })());
  return { app: started, admin, bus, url, adminUrl, close };
}
