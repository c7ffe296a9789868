import { createPrismaClient, createSqlPool, PrismaClient, type SqlPool } from '@gateway/db';
import { Logger, type Provider } from '@nestjs/common';

/**
 * The pg pool under Prisma, for repositories' bulk statements that run many times a second (usage rows,
 * ledger entries): sent as named prepared statements, they skip Prisma's per-call query compilation.
 */
export const SQL_POOL = Symbol('SQL_POOL');

/** A process's one database pool (SQL_POOL) and the Prisma client over it; an idle connection the server ends is logged, never fatal. */
export function databaseProviders(service: string, databaseUrl: string, poolSize?: number): Provider[] {
  return [
    {
      provide: SQL_POOL,
      useFactory: (): SqlPool => {
        const logger = new Logger(service);
        return createSqlPool(databaseUrl, poolSize, (error) => logger.warn(`an idle database connection ended: ${error.message}`));
      },
    },
    { provide: PrismaClient, inject: [SQL_POOL], useFactory: (pool: SqlPool) => createPrismaClient(pool) },
  ];
}
