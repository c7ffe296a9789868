import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase } from './database.migrator';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own for one test file or run; drop() removes it. */
export async function createTestDatabase(
  serverUrl = process.env.TEST_DATABASE_SERVER ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  label = 'test',
): Promise<TestDatabase> {
  const name = `gw_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  return {
    url: url.toString(),
    async drop() {
      const admin = new URL(serverUrl);
      admin.pathname = '/postgres';
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
