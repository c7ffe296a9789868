import 'reflect-metadata';
import type { ServiceName } from '@gateway/contracts';
import { Logger, type DynamicModule, type INestMicroservice, type LogLevel, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BaseEnv, loadEnvOrExit } from '../config/env';
import { connectNats } from '../nats/connect';
import { NatsBus } from '../nats/nats-bus';
import { NatsModule } from '../nats/nats.module';
import { NatsRpcTransport } from '../nats/nats-rpc.transport';
import { answerProcessStats } from '../nats/process-stats-responder';
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

/** The longest a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 15_000;

/**
 * Starts a NATS service: connects, wires its handlers to our transport, answers its health and process-stats subjects,
 * and drains on SIGTERM/SIGINT.
 */
export async function bootstrapService(service: ServiceName, module: Type | DynamicModule): Promise<INestMicroservice> {
  const env = loadEnvOrExit(BaseEnv);
  const logger = new Logger(service);
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
    strategy: new NatsRpcTransport(connection, env.NATS_PREFIX, service, bus.beforeReply),
    logger: logLevels(env.LOG_LEVEL),
    bufferLogs: false,
  });
  app.useGlobalFilters(new RethrowFilter());
  app.enableShutdownHooks();
  await app.listen();
  answerProcessStats(connection, env.NATS_PREFIX, service);
  const close = async () => {
    // Draining must end: a shutdown step that never returns would leave the process up forever.
    setTimeout(() => {
      logger.error(`${service} did not finish shutting down within ${SHUTDOWN_DEADLINE_MS} ms; exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await app.close();
    await connection.drain().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  logger.log(`${service} listening on NATS ${env.NATS_URL}${env.NATS_PREFIX ? ` (prefix ${env.NATS_PREFIX})` : ''}`);
  return app;
}
