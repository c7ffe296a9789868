/** Ledger and balance reads in the run's database for the billing e2e specs, and a chat call by plain HTTP. */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { baseUrl, bearer, http, type HttpResult } from './gateway';
import { e2eEnv } from './e2e-env';

export async function withSql<T>(work: (client: pg.Client) => Promise<T>, url = e2eEnv().GW_E2E_DATABASE_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** What the ledger charged one request: minus the sum of its entries, once its settle or release is in. */
export async function chargeOf(requestId: string, url?: string, timeoutMs = 10_000): Promise<{ charged: bigint; pool: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await withSql(
      (sql) =>
        sql.query<{ kind: string; pool: string; amount_micros: string }>('SELECT kind, pool, amount_micros FROM ledger_entries WHERE request_id = $1', [
          requestId,
        ]),
      url,
    );
    if (rows.rows.some((r) => r.kind === 'settle' || r.kind === 'release')) {
      return { charged: -rows.rows.reduce((sum, r) => sum + BigInt(r.amount_micros), 0n), pool: rows.rows[0]!.pool };
    }
    if (Date.now() > deadline) throw new Error(`request ${requestId} has no settled ledger entries after ${timeoutMs} ms: ${JSON.stringify(rows.rows)}`);
    await sleep(100);
  }
}

export interface StoredBalance {
  /** The balances row (the cache). */
  balance: bigint;
  /** The balance recomputed from the ledger. */
  ledger: bigint;
}

export async function storedBalance(slug: string, url?: string): Promise<StoredBalance> {
  return withSql(async (sql) => {
    const { rows } = await sql.query<{ balance: string | null; ledger: string | null }>(
      `SELECT (SELECT micros FROM balances b WHERE b.tenant_id = t.id) AS balance,
              (SELECT sum(amount_micros) FROM ledger_entries l WHERE l.tenant_id = t.id AND l.pool = 'balance') AS ledger
         FROM tenants t WHERE t.slug = $1`,
      [slug],
    );
    return { balance: BigInt(rows[0]?.balance ?? 0), ledger: BigInt(rows[0]?.ledger ?? 0) };
  }, url);
}

export async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: gave up at ${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
    await sleep(100);
  }
}

/** One non-streamed chat completion by plain HTTP; `requestId` is the server's id from the response. */
export async function chat(
  key: string,
  content: string,
  options: { base?: string; model?: string; maxTokens?: number } = {},
): Promise<HttpResult & { requestId: string }> {
  const json: Record<string, unknown> = { model: options.model ?? 'sandbox-gpt', messages: [{ role: 'user', content }] };
  if (options.maxTokens) json.max_tokens = options.maxTokens;
  const result = await http('POST', `${options.base ?? baseUrl()}/oaic/v1/chat/completions`, { headers: bearer(key), json });
  return { ...result, requestId: String(result.headers['x-request-id']) };
}

export function errorCode(result: HttpResult): unknown {
  return (result.body as { error?: { code?: unknown } } | undefined)?.error?.code;
}
