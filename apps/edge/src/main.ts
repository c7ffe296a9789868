import 'reflect-metadata';
import { configureUrlPolicy } from '@gateway/contracts';
import { loadEnvOrExit } from '@gateway/platform';
import { Logger } from '@nestjs/common';
import { EdgeEnv } from './config/edge-env';
import { createEdgeApp } from './edge.app';

async function main(): Promise<void> {
  const env = loadEnvOrExit(EdgeEnv);
  configureUrlPolicy({ allowHosts: env.URL_POLICY_ALLOW_HOSTS });
  const logger = new Logger('edge');
  const edge = await createEdgeApp(env).catch((error: Error) => {
    logger.error(error.message);
    process.exit(1);
  });
  logger.log(`edge listening on ${edge.url} (admin ${edge.adminUrl})${env.NATS_PREFIX ? `, NATS prefix ${env.NATS_PREFIX}` : ''}`);
  const stop = async () => {
    await edge.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
