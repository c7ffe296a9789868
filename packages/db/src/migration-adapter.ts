import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';

/**
 * The pg driver adapter cannot map the catalog column types `name` (oid 19) and `"char"` (oid 18)
 * that the migration engine reads from pg_catalog; both are plain text to us.
 */
const CATALOG_TEXT_OIDS = new Set([18, 19]);
const TEXT_OID = 25;

function asText<T>(result: T): T {
  const fields = (result as { fields?: { dataTypeID: number }[] } | undefined)?.fields;
  fields?.forEach((field) => {
    if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  });
  return result;
}

function patchQuery(target: { query: (...args: unknown[]) => unknown }): void {
  const original = target.query.bind(target);
  target.query = (...args: unknown[]) => {
    const out = original(...args);
    return out instanceof Promise ? out.then(asText) : out;
  };
}

export function createMigrationAdapter(connectionString: string): PrismaPg {
  const pool = new pg.Pool({ connectionString, max: 2 });
  patchQuery(pool as unknown as { query: (...args: unknown[]) => unknown });
  pool.on('connect', (client) => patchQuery(client as unknown as { query: (...args: unknown[]) => unknown }));
  return new PrismaPg(pool);
}
