import 'reflect-metadata';
import { NatsBus, NatsModule, NatsRpcTransport, RethrowFilter } from '@gateway/platform';
import type { DynamicModule, INestMicroservice, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NatsConnection } from 'nats';
import { AccountsModule } from './accounts.module';

export interface AccountsAppOptions {
  connection: NatsConnection;
  prefix: string;
  databaseUrl: string;
  logger?: LogLevel[] | false;
}

/**
 * Builds and starts the accounts service on an open NATS connection, the way bootstrapService does for
 * the process; integration tests start it in-process with their own database and subject prefix.
 */
export async function startAccountsApp(options: AccountsAppOptions): Promise<INestMicroservice> {
  const bus = new NatsBus(options.connection, options.prefix);
  const root: DynamicModule = {
    module: class AccountsRootModule {},
    imports: [NatsModule.forBus(bus), AccountsModule.forRoot({ databaseUrl: options.databaseUrl, natsPrefix: options.prefix })],
  };
  const app = await NestFactory.createMicroservice(root, {
    strategy: new NatsRpcTransport(options.connection, options.prefix, 'accounts'),
    logger: options.logger ?? false,
  });
  app.useGlobalFilters(new RethrowFilter());
  await app.listen();
  return app;
}
