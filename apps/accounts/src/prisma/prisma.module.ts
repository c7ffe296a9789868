// Owns the process's one database pool and the Prisma client over it (platform's databaseProviders):
// created from the configured URL, disconnected (pool included) on shutdown.
import { PrismaClient } from '@gateway/db';
import { databaseProviders, SQL_POOL } from '@gateway/platform/infra';
import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';

@Injectable()
class PrismaLifecycle implements OnApplicationShutdown {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
  }
}

@Global()
@Module({})
export class PrismaModule {
  static forUrl(databaseUrl: string): DynamicModule {
    return {
      module: PrismaModule,
      providers: [...databaseProviders('accounts', databaseUrl), PrismaLifecycle],
      exports: [PrismaClient, SQL_POOL],
    };
  }
}
