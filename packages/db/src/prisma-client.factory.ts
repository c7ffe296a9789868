import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';

/** A plain pg pool, shared with Prisma: for the few bulk statements that run many times a second. */
export type SqlPool = pg.Pool;

export function createSqlPool(databaseUrl: string, poolSize = 10): SqlPool {
  return new pg.Pool({ connectionString: databaseUrl, max: poolSize });
}

/**
 * One Prisma client over the pg driver adapter; no native query engine is needed. Given a pool, the
 * client runs on it and ends it on $disconnect.
 */
export function createPrismaClient(database: string | SqlPool, poolSize = 10): PrismaClient {
  const adapter =
    typeof database === 'string' ? new PrismaPg({ connectionString: database, max: poolSize }) : new PrismaPg(database, { disposeExternalPool: true });
  return new PrismaClient({ adapter });
}
