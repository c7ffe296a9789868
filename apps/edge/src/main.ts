import 'reflect-metadata';
import { configureUrlPolicy } from '@gateway/contracts';
import { createLogger, loadEnvOrExit, startTracing, stopTracing, useLoggerForNest } from '@gateway/platform';
import { Logger } from '@nestjs/common';
import { EdgeEnv } from './config/edge-env';
import { createEdgeApp } from './edge.app';

async function main(): Promise<void> {
  const env = loadEnvOrExit(EdgeEnv);
  configureUrlPolicy({ allowHosts: env.URL_POLICY_ALLOW_HOSTS });
  const log = createLogger('edge', env);
  useLoggerForNest(log);
  await startTracing('edge', env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const logger = new Logger('edge');
  const edge = await createEdgeApp(env, { log }).catch((error: Error) => {
    logger.error(error.message);
    process.exit(1);
  });
  logger.log(`edge listening on ${edge.url} (admin ${edge.adminUrl})${env.NATS_PREFIX ? `, NATS prefix ${env.NATS_PREFIX}` : ''}`);
  const stop = async () => {
    // Draining must end: a step that never returns would leave the process up forever.
    setTimeout(() => process.exit(1), env.SHUTDOWN_GRACE_SECONDS * 1000 + 5000).unref();
    logger.log(`edge draining: not ready, no new connections, up to ${env.SHUTDOWN_GRACE_SECONDS} s for open requests and streams`);
    const started = Date.now();
    await edge.close();
    await stopTracing();
    logger.log(`edge stopped after ${Date.now() - started} ms`);
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
