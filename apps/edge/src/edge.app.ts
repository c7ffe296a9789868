import 'reflect-metadata';
import { GatewayError, ROUTES, type RouteDef } from '@gateway/contracts';
import { answerProcessStats, connectNats, createLogger, DeadLetterStream, loadEnv, NatsBus, nestLoggerOf, type AppLogger } from '@gateway/platform';
import { Logger, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { NatsConnection } from 'nats';

import { randomUUID } from 'node:crypto';
import { adminHostNames, assertAdminExposure } from './admin/admin-exposure';
import { createAdminServer } from './admin/admin-server';
import { registerDocsRoutes } from './docs/docs.routes';
import { ConsoleEdgeEnv } from './console/console-env';
import { listenerOrigin, mountConsole, type MountedConsole } from './console/console.mount';
import type { EdgeEnv } from './config/edge-env';
import { EdgeModule } from './edge.module';
import { answerClientError, answerFrameworkError } from './errors/client-error';
import { familyOfPath, toGatewayError } from './errors/error-dialect';
import { sendError } from './errors/error-reply';
import { logIfInternal } from './errors/internal-error-log';
import { HANDLER_MODULES } from './handler-modules';
import { drainServer } from './ops/drain';
import { HttpMetrics } from './ops/http-metrics';
import { registerOpsRoutes } from './ops/ops-routes';
import { ReadinessService } from './ops/readiness.service';
import { installRequestObserver } from './ops/request-observer';
import { EdgeFastifyAdapter } from './routing/edge-fastify.adapter';
import { installJsonBodyParser } from './routing/json-body.parser';
import './routing/route-config';
import { bodyLimitOf, tooLargeMessage } from './routing/body-limits';
import { dropRestOfBody, installLingeringClose } from './routing/refused-body';
import { RouteRegistrar } from './routing/route-registrar.service';

/** An unknown path is named in its 404 up to this length: enough to spot a typo, not a mirror for any text. */
const MAX_ECHOED_PATH = 200;

/** Chat requests carry inline images and long prompts: 10 MB and more must pass (each route narrows it: routing/body-limits.ts). */
const BODY_LIMIT = 32 * 1024 * 1024;

export interface EdgeAppOptions {
  /** Reuse a connection (tests); otherwise the edge connects to env.NATS_URL and drains it on close. */
  connection?: NatsConnection;
  handlerModules?: readonly Type[];
  /** The route table to serve; the contract's by default (tests serve fixtures). */
  routes?: readonly RouteDef[];
  /** Where access and framework lines go; a logger of the env's level and format by default. */
  log?: AppLogger;
}

export interface EdgeApp {
  app: NestFastifyApplication;
  admin: FastifyInstance;
  bus: NatsBus;
  /** Base URLs of the public and admin listeners, once started. */
  url: string;
  adminUrl: string;
  /**
   * Reports not-ready, takes no new connection, lets open streams and requests finish for up to
   * `graceMs` (SHUTDOWN_GRACE_SECONDS by default), then closes.
   */
  close(graceMs?: number): Promise<void>;
}

/** Always the server's own id: a client's x-request-id is only echoed (routing/request-id.ts), never a key. */
function requestIdOf(): string {
  return randomUUID();
}

function familyOf(request: FastifyRequest) {
  return request.routeOptions.config?.family ?? familyOfPath(request.url);
}

/**
 * A body over the route's own limit: the 413 names the limit and its variable. The rest of the body is
 * read and dropped rather than the connection closed under a client still writing it (Fastify's way),
 * so the client reads the answer.
 */
function bodyTooLarge(request: FastifyRequest, reply: FastifyReply, error: unknown): GatewayError | undefined {
  const limit = request.routeOptions.config?.bodyLimit;
  if (limit === undefined || (error as { statusCode?: unknown } | null)?.statusCode !== 413) return undefined;
  reply.removeHeader('connection');
  dropRestOfBody(request.raw);
  return new GatewayError('payload_too_large', tooLargeMessage(limit));
}

function installErrorHandlers(fastify: FastifyInstance, logger: Logger): void {
  const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
    return sendError(reply, familyOfPath(request.url), GatewayError.notFound(`Unknown route: ${request.method} ${shown}.`));
  };
  // Answered in onRequest: Fastify would otherwise read and parse an unknown path's body before its 404.
  // Callback style: no promise per request on the hot path; a sent reply ends the request without done().
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.is404) void notFound(request, reply);
    else done();
  });
  fastify.setNotFoundHandler(notFound);
  fastify.setErrorHandler((error, request, reply) => {
    logIfInternal(logger, request, error);
    return sendError(reply, familyOf(request), bodyTooLarge(request, reply, error) ?? toGatewayError(error));
  });
}

/** Node's timeouts of the public listener, from seconds in the env to milliseconds. */
function listenerTimeouts(env: EdgeEnv) {
  const ms = (seconds: number) => Math.max(1, Math.round(seconds * 1000));
  const headersTimeout = ms(env.HTTP_HEADERS_TIMEOUT_SECONDS);
  const requestTimeout = Math.max(ms(env.HTTP_REQUEST_TIMEOUT_SECONDS), headersTimeout);
  return {
    requestTimeout,
    connectionTimeout: ms(env.HTTP_IDLE_TIMEOUT_SECONDS),
    keepAliveTimeout: ms(env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS),
    // Node checks the headers and request deadlines only this often (30 s by default): a quarter of the shorter one, at most 1 s.
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(headersTimeout / 4))) },
  };
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
  assertAdminExposure(env);
  const ownConnection = options.connection === undefined;
  const connection = options.connection ?? (await connectNats(env.NATS_URL, 'edge'));
  const bus = new NatsBus(connection, env.NATS_PREFIX);

  const fastify = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    genReqId: requestIdOf,
    return503OnClosing: true,
    ...listenerTimeouts(env),
    trustProxy: env.TRUSTED_PROXIES.length > 0 ? env.TRUSTED_PROXIES : false,
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });
  installJsonBodyParser(fastify);
  installLingeringClose(fastify);
  const metrics = new HttpMetrics();
  metrics.install(fastify);
  const log = options.log ?? createLogger('edge', env);
  installRequestObserver(fastify, metrics, log);
  metrics.watchDeadLetters(new DeadLetterStream(connection, bus.prefix));
  installErrorHandlers(fastify, logger);

  const module = EdgeModule.forRoot(env, bus, options.handlerModules ?? HANDLER_MODULES);
  const publicBaseUrl = loadEnv(ConsoleEdgeEnv).PUBLIC_BASE_URL;
  const admin = createAdminServer(
    bus,
    env.ADMIN_TOKEN,
    adminHostNames(env.ADMIN_HOST, env.ADMIN_ALLOWED_HOSTS),
    () => publicBaseUrl ?? listenerOrigin(fastify),
  );
  let app: NestFastifyApplication | undefined;
  let count: number;
  let consoles: MountedConsole | undefined;
  try {
    app = await NestFactory.create<NestFastifyApplication>(module, new EdgeFastifyAdapter(fastify), {
      logger: nestLoggerOf(log),
      bodyParser: false,
      abortOnError: false,
    });
    await app.init();
    registerOpsRoutes(fastify, app.get(ReadinessService), metrics);
    registerDocsRoutes(fastify);
    const maxPayload = connection.info?.max_payload;
    count = app.get(RouteRegistrar).register(fastify, options.routes ?? ROUTES, (route) => bodyLimitOf(route, env, maxPayload));
    consoles = mountConsole({ public: fastify, admin }, bus, env.ADMIN_TOKEN);
    await app.listen(env.PORT, env.HOST);
    await admin.listen({ port: env.ADMIN_PORT, host: env.ADMIN_HOST });
  } catch (error) {
    // A failed start leaves nothing behind: no listener, no subscription, no connection we opened.
    await app?.close().catch(() => undefined);
    await admin.close().catch(() => undefined);
    consoles?.stop();
    if (ownConnection) await connection.close();
    throw error;
  }
  const started = app;
  const url = baseUrl(fastify.server.address());
  const adminUrl = baseUrl(admin.server.address());
  logger.debug(`${count} public routes registered`);
  const stats = answerProcessStats(connection, env.NATS_PREFIX, 'edge');

  let closing: Promise<void> | undefined;
  const close = (graceMs = env.SHUTDOWN_GRACE_SECONDS * 1000) =>
    (closing ??= (async () => {
      started.get(ReadinessService).draining = true;
      const drainStarted = Date.now();
      await drainServer(fastify.server, graceMs);
      logger.log(`edge drained its listener in ${Date.now() - drainStarted} ms`);
      stats.unsubscribe();
      consoles?.stop();
      await Promise.allSettled([started.close(), admin.close()]);
      if (ownConnection) await connection.drain().catch(() => undefined);
    })());
  return { app: started, admin, bus, url, adminUrl, close };
}
