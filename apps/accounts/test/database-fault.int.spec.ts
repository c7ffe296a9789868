import { createPrismaClient, createSqlPool } from '@gateway/db';
import { isDatabaseFault, toErrorBody } from '@gateway/platform';
import net from 'node:net';

/** A port nothing listens on: the database is down. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('a database out of reach', () => {
  it('answers unavailable with Retry-After, from a query and from a transaction, never internal', async () => {
    const prisma = createPrismaClient(createSqlPool(`postgresql://postgres@127.0.0.1:${await closedPort()}/gateway`, 1), 1);
    try {
      const failures = await Promise.all([
        prisma.$queryRaw`SELECT 1`.then(
          () => null,
          (error: unknown) => error,
        ),
        prisma
          .$transaction(async (tx) => tx.$queryRaw`SELECT 1`)
          .then(
            () => null,
            (error: unknown) => error,
          ),
      ]);
      for (const error of failures) {
        expect(isDatabaseFault(error)).toBe(true);
        expect(toErrorBody(error)).toMatchObject({ code: 'unavailable', retryAfterSeconds: 2 });
      }
    } finally {
      await prisma.$disconnect();
    }
  }, 30_000);

  it('answers unavailable for a write that meets a read-only server, as a demoted primary is in a switchover', async () => {
    // The connection's sessions are read-only, as a primary's are once it has been demoted to a replica.
    const readOnly = 'postgresql://postgres@127.0.0.1:5432/postgres?options=-c%20default_transaction_read_only%3Don';
    const prisma = createPrismaClient(createSqlPool(readOnly, 1), 1);
    try {
      const error = await prisma.$executeRaw`CREATE TEMP TABLE switchover_probe (n int)`.then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(isDatabaseFault(error)).toBe(true);
      expect(toErrorBody(error)).toMatchObject({ code: 'unavailable', retryAfterSeconds: 2 });
    } finally {
      await prisma.$disconnect();
    }
  }, 30_000);

  it('survives an idle connection the server ends, telling the listener and opening a new one on next use', async () => {
    const application = `idle-end-${process.pid}-${Date.now()}`;
    const ended: Error[] = [];
    const pool = createSqlPool(`postgresql://postgres@127.0.0.1:5432/postgres?application_name=${application}`, 2, (error) => ended.push(error));
    const admin = createSqlPool('postgresql://postgres@127.0.0.1:5432/postgres', 1);
    try {
      await pool.query('SELECT 1');
      // The connection is idle in the pool now; the server ends it, as a restart or a switchover does.
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [application]);
      const deadline = Date.now() + 10_000;
      while (ended.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ended.map((error) => (error as Error & { code?: string }).code)).toEqual(['57P01']);
      await expect(pool.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      await pool.end();
      await admin.end();
    }
  }, 30_000);
});
