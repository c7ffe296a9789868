import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';

/** A plain pg pool, shared with Prisma: for the few bulk statements that run many times a second. */
export type SqlPool = pg.Pool;

/**
 * `onIdleError` hears of an idle connection the server ended (a restart, a switchover): the pool drops it
 * and opens a new one on next use. Without a listener that error would end the process.
 */
export function createSqlPool(databaseUrl: string, poolSize = 10, onIdleError: (error: Error) => void = () => undefined): SqlPool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  pool.on('error', onIdleError);
  return pool;
}

/**
 * How long a transaction may wait for a connection of the pool, and then run. Prisma's 2 s wait turned a
 * burst that kept the pool busy for a moment into a failed top-up or key; a wait within the bus's 10 s
 * request timeout rides it out.
 */
export const TRANSACTION_OPTIONS = { maxWait: 8_000, timeout: 10_000 } as const;

/**
 * One Prisma client over the pg driver adapter; no native query engine is needed. Given a pool, the
 * client runs on it and ends it on $disconnect.
 */
export function createPrismaClient(database: string | SqlPool, poolSize = 10): PrismaClient {
  const adapter =
    typeof database === 'string' ? new PrismaPg({ connectionString: database, max: poolSize }) : new PrismaPg(database, { disposeExternalPool: true });
  return new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
}
