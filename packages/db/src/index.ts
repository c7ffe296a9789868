export { PrismaClient, Prisma } from './generated/prisma/client';
export type * from './generated/prisma/models';
export { BillingMode, ConsoleRole, KeyStatus } from './generated/prisma/enums';
export { createPrismaClient, createSqlPool, type SqlPool } from './prisma-client.factory';
export { ensureDatabase, migrateDatabase, databaseName } from './database.migrator';
export { createTestDatabase, type TestDatabase } from './test-database';
export { isRecordError, pgJson, pgText, pgTextFields } from './pg-text';
export { distinctRounds, StatementBatcher } from './statement-batcher';
export { tenantStorage } from './tenant-storage';
