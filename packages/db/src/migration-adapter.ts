import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { splitSqlScript } from './sql-script';

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

type ScriptRunner = { executeScript(script: string): Promise<void> };

/**
 * The adapter runs a migration statement by statement, cut at every semicolon, which cuts a function's
 * body apart: this runs each statement the splitter finds instead, in order, as the adapter would.
 */
function splitScriptsWhole(adapter: ScriptRunner, pool: pg.Pool): void {
  const original = adapter.executeScript.bind(adapter);
  adapter.executeScript = async (script: string) => {
    for (const statement of splitSqlScript(script)) {
      try {
        await pool.query(statement);
      } catch (error) {
        // A statement with no semicolon inside runs again through the adapter, which maps its error as Prisma expects.
        if (statement.includes(';')) throw error;
        await original(statement);
      }
    }
  };
}

export function createMigrationAdapter(connectionString: string): PrismaPg {
  const pool = new pg.Pool({ connectionString, max: 2 });
  patchQuery(pool as unknown as { query: (...args: unknown[]) => unknown });
  pool.on('connect', (client) => patchQuery(client as unknown as { query: (...args: unknown[]) => unknown }));
  const factory = new PrismaPg(pool);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    splitScriptsWhole(adapter as unknown as ScriptRunner, pool);
    return adapter;
  };
  return factory;
}
