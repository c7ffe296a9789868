import { createPrismaClient, createSqlPool } from '../src/prisma-client.factory';
import { createTestDatabase, type TestDatabase } from '../src/test-database';

describe('createPrismaClient', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'prismaclient');
  });

  afterAll(async () => {
    await db.drop();
  });

  it('lets a transaction wait past 2 s for the one connection of a busy pool, then run', async () => {
    const prisma = createPrismaClient(createSqlPool(db.url, 1), 1);
    try {
      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
      let firstStarted!: () => void;
      const started = new Promise<void>((resolve) => (firstStarted = resolve));
      const first = prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        firstStarted();
        await firstHolds;
      });
      await started;
      const second = prisma.$transaction(async (tx) => tx.$queryRaw<Array<{ n: number }>>`SELECT 2 AS n`);
      // Past Prisma's own 2 s wait for a connection, the first transaction still holds the only one.
      const held = setTimeout(releaseFirst, 3000);
      try {
        await expect(second).resolves.toEqual([{ n: 2 }]);
        await first;
      } finally {
        clearTimeout(held);
      }
    } finally {
      await prisma.$disconnect();
    }
  });
});
