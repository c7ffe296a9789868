import 'reflect-metadata';
import type { ServiceName } from '@gateway/contracts';
import { Logger, type DynamicModule, type INestMicroservice, type LogLevel, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BaseEnv, loadEnvOrExit } from '../config/env';
import { connectNats } from '../nats/connect';
import { NatsBus } from '../nats/nats-bus';
import { NatsModule } from '../nats/nats.module';
import { NatsRpcTransport } from '../nats/nats-rpc.transport';
import { answerChannelHealth } from '../nats/channel-health-responder';
import { answerProcessStats } from '../nats/process-stats-responder';
import { createLogger, useLoggerForNest } from '../observability/logger';
import { collectProcessMetrics, setTenantLabel } from '../observability/metrics';
import { startOpsServer, type OpsServer } from '../observability/ops-server';
import { dependencyChecks } from '../observability/readiness-checks';
import { startTracing, stopTracing } from '../observability/tracing';
import { RethrowFilter } from './rethrow.filter';

const LEVELS: Record<BaseEnv['LOG_LEVEL'], LogLevel[]> = {
  debug: ['debug', 'log', 'warn', 'error', 'fatal'],
  info: ['log', 'warn', 'error', 'fatal'],
  warn: ['warn', 'error', 'fatal'],
  error: ['error', 'fatal'],
};

export function logLevels(level: BaseEnv['LOG_LEVEL']): LogLevel[] {
  return LEVELS[level];
}

/** What a shutdown may take beyond the grace for in-flight requests (closing modules and connections). */
const SHUTDOWN_SLACK_MS = 5_000;

/**
 * Starts a NATS service: JSON logs, traces when an OTLP endpoint is set, the operational listener on
 * METRICS_PORT (/healthz, /readyz, /metrics), its handlers on our transport, its health and process-stats
 * subjects; on SIGTERM/SIGINT it reports not-ready, stops taking requests and lets those in flight finish
 * within SHUTDOWN_GRACE_SECONDS.
 */
export async function bootstrapService(service: ServiceName, module: Type | DynamicModule): Promise<INestMicroservice> {
  const env = loadEnvOrExit(BaseEnv);
  const nestLogger = useLoggerForNest(createLogger(service, env));
  const logger = new Logger(service);
  await startTracing(service, env.OTEL_EXPORTER_OTLP_ENDPOINT);
  setTenantLabel(env.METRICS_TENANT_LABEL);
  const graceMs = env.SHUTDOWN_GRACE_SECONDS * 1000;
  let connection;
  try {
    connection = await connectNats(env.NATS_URL, service);
  } catch (error) {
    logger.error((error as Error).message);
    process.exit(1);
  }
  const bus = new NatsBus(connection, env.NATS_PREFIX);
  const root: DynamicModule = { module: class ServiceRootModule {}, imports: [NatsModule.forBus(bus), module] };
  const app = await NestFactory.createMicroservice(root, {
    strategy: new NatsRpcTransport(connection, env.NATS_PREFIX, service, bus.beforeReply, graceMs, bus.replyClaims),
    logger: nestLogger,
    bufferLogs: false,
  });
  app.useGlobalFilters(new RethrowFilter());
  app.enableShutdownHooks();
  await app.listen();
  answerProcessStats(connection, env.NATS_PREFIX, service);
  answerChannelHealth(connection, env.NATS_PREFIX, service);
  let ops: OpsServer | undefined;
  if (env.METRICS_PORT !== undefined) {
    collectProcessMetrics();
    ops = await startOpsServer({ host: env.METRICS_HOST, port: env.METRICS_PORT, checks: dependencyChecks(connection, process.env) }).catch((error: Error) => {
      logger.error(`the metrics listener cannot start on ${env.METRICS_HOST}:${env.METRICS_PORT}: ${error.message}`);
      process.exit(1);
    });
    logger.log(`${service} metrics and probes on http://${env.METRICS_HOST}:${ops.port}`);
  }
  const close = async () => {
    // Draining must end: a shutdown step that never returns would leave the process up forever.
    const deadline = graceMs + SHUTDOWN_SLACK_MS;
    setTimeout(() => {
      logger.error(`${service} did not finish shutting down within ${deadline} ms; exiting`);
      process.exit(1);
    }, deadline).unref();
    ops?.drain();
    logger.log(`${service} draining: no new requests, waiting up to ${env.SHUTDOWN_GRACE_SECONDS} s for those in flight`);
    await app.close();
    await connection.drain().catch(() => undefined);
    await stopTracing();
    await ops?.close();
    process.exit(0);
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  logger.log(`${service} listening on NATS ${env.NATS_URL}${env.NATS_PREFIX ? ` (prefix ${env.NATS_PREFIX})` : ''}`);
  return app;
}
