// Owns the process's one database pool and the Prisma client over it: created from the configured URL,
// disconnected (pool included) on shutdown.
import { createPrismaClient, createSqlPool, PrismaClient, type SqlPool } from '@gateway/db';
import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';

/**
 * The pg pool under Prisma, for repositories' bulk statements that run many times a second (usage rows,
 * ledger entries): sent as named prepared statements, they skip Prisma's per-call query compilation.
 */
export const SQL_POOL = Symbol('SQL_POOL');

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
      providers: [
        {
          provide: SQL_POOL,
          useFactory: () => {
            const logger = new Logger('accounts');
            return createSqlPool(databaseUrl, undefined, (error) => logger.warn(`an idle database connection ended: ${error.message}`));
          },
        },
        { provide: PrismaClient, useFactory: (pool: SqlPool) => createPrismaClient(pool), inject: [SQL_POOL] },
        PrismaLifecycle,
      ],
      exports: [PrismaClient, SQL_POOL],
    };
  }
}
