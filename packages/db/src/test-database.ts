import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migrateDatabase } from './database.migrator';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

const MIGRATIONS = path.resolve(__dirname, '..', 'prisma', 'migrations');

/** A name that changes whenever a migration is added or edited, so a stale template is never reused. */
function templateName(): string {
  const hash = createHash('sha256');
  for (const dir of readdirSync(MIGRATIONS)
    .filter((d) => !d.endsWith('.toml'))
    .sort()) {
    hash.update(dir).update(readFileSync(path.join(MIGRATIONS, dir, 'migration.sql')));
  }
  return `gw_template_${hash.digest('hex').slice(0, 12)}`;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates a template database once per schema version (under an advisory lock, so parallel test
 * files wait for one migration), marked as a template so copies are instant.
 */
async function ensureTemplate(serverUrl: string): Promise<string> {
  const name = templateName();
  return withAdmin(serverUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock(727274)');
    try {
      const found = await admin.query('SELECT datistemplate FROM pg_database WHERE datname = $1', [name]);
      if (found.rows[0]?.datistemplate) return name;
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await migrateDatabase(withDatabase(serverUrl, name));
      await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock(727274)');
    }
  });
}

/** A fresh, migrated database of its own for one test file or run; drop() removes it. */
export async function createTestDatabase(
  serverUrl = process.env.TEST_DATABASE_SERVER ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  label = 'test',
): Promise<TestDatabase> {
  const template = await ensureTemplate(serverUrl);
  const name = `gw_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await withAdmin(serverUrl, (admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  return {
    url: withDatabase(serverUrl, name),
    drop: () => withAdmin(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
