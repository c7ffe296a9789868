/**
 * Native batches through the running gateway with the official openai SDK: a batch whose lines all name
 * a model whose channel is flagged nativeBatch (sandbox-gpt-batch) is forwarded whole to the sandbox's own
 * batch API; its output comes back with every custom_id once and the catalog's model id, one usage row
 * and one charge per line at the usage the upstream reported. Cancel reaches the upstream batch, which the
 * sandbox holds after a known count of lines so the cancel always lands mid-run.
 */
import type OpenAI from 'openai';
import { chatFile, finished, jsonlOf, waitForBatch } from './support/batch-fixtures';
import { eventually, withSql } from './support/billing-fixtures';
import { createTenantWithKey, openaiClient, type TenantWithKey } from './support/gateway';
import { liftSandboxHold, sandboxHold } from './support/sandbox-holds';

const MODEL = 'sandbox-gpt-batch';
/** The catalog's prices of MODEL, in micro-units per million tokens. */
const PRICES = { input: 500_000n, output: 1_500_000n };

interface OutputLine {
  custom_id: string;
  response: { status_code: number; request_id: string; body: { model: string; usage: { prompt_tokens: number; completion_tokens: number } } } | null;
  error: { code: string } | null;
}

const batchRow = (id: string) =>
  withSql(async (sql) => (await sql.query('SELECT mode, upstream_batch_id, upstream_input_file_id FROM batches WHERE id = $1', [id])).rows[0]);

/** Per line request id of the batch: the tokens of its usage row and what the ledger charged it. */
async function billedLines(batchId: string): Promise<Map<string, { prompt: number; completion: number; charged: bigint; settled: boolean }>> {
  return withSql(async (sql) => {
    const usage = await sql.query<{ request_id: string; prompt_tokens: number; completion_tokens: number }>(
      'SELECT request_id, prompt_tokens, completion_tokens FROM usage_records WHERE client_request_id = $1',
      [batchId],
    );
    const ledger = await sql.query<{ request_id: string; charged: string; settled: boolean }>(
      `SELECT request_id, -sum(amount_micros) AS charged, bool_or(kind = 'settle') AS settled
         FROM ledger_entries WHERE request_id LIKE $1 GROUP BY request_id`,
      [`${batchId}-%`],
    );
    const charges = new Map(ledger.rows.map((r) => [r.request_id, r]));
    return new Map(
      usage.rows.map((r) => [
        r.request_id,
        {
          prompt: r.prompt_tokens,
          completion: r.completion_tokens,
          charged: BigInt(charges.get(r.request_id)?.charged ?? 0),
          settled: charges.get(r.request_id)?.settled ?? false,
        },
      ]),
    );
  });
}

const expectedCharge = (prompt: number, completion: number): bigint => {
  const micros = BigInt(prompt) * PRICES.input + BigInt(completion) * PRICES.output;
  return (micros + 999_999n) / 1_000_000n;
};

describe('native batches', () => {
  let tenant: TenantWithKey;
  let client: OpenAI;

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'native-batches', balance: '100.00' });
    client = openaiClient(tenant.key);
  });

  afterAll(async () => {
    await liftSandboxHold('ncancel-');
  });

  it("forwards a one-model batch to the upstream's batch API and maps its output back: every custom_id once, the catalog model, one usage row and one charge per line", async () => {
    const LINES = 300;
    const input = await client.files.create({ file: chatFile(LINES, [MODEL], 'native'), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const done = await waitForBatch(client, created.id, finished, 120_000);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: LINES, completed: LINES, failed: 0 });
    for (const stamp of ['in_progress_at', 'finalizing_at', 'completed_at'] as const) expect(done[stamp]).toBeGreaterThanOrEqual(done.created_at);
    expect(done.error_file_id).toBeNull();

    const row = await batchRow(created.id);
    expect(row).toMatchObject({ mode: 'native', upstream_batch_id: expect.stringMatching(/^batch_/), upstream_input_file_id: expect.stringMatching(/^file-/) });
    // The upstream's ids stay the gateway's secret: the client sees its own batch and files.
    expect(done.id).toBe(created.id);
    expect(done.output_file_id).not.toBe(row.upstream_batch_id);

    const output = (await jsonlOf(client, done.output_file_id!)) as unknown as OutputLine[];
    expect(output).toHaveLength(LINES);
    expect(new Set(output.map((line) => line.custom_id))).toEqual(new Set(Array.from({ length: LINES }, (_, i) => `native-${i}`)));
    for (const line of output) {
      expect(line.response!.status_code).toBe(200);
      // The upstream answered as "sandbox-gpt@latency=20"; the client sees the catalog's id.
      expect(line.response!.body.model).toBe(MODEL);
      expect(line.response!.request_id).toMatch(/^req_/);
    }
    expect((await client.files.retrieve(done.output_file_id!)).purpose).toBe('batch_output');

    const billed = await eventually(
      'a usage row and a settled charge per line',
      () => billedLines(created.id),
      (lines) => lines.size === LINES && [...lines.values()].every((l) => l.settled),
      30_000,
    );
    const byCustomId = new Map(output.map((line) => [line.custom_id, line.response!.body.usage]));
    for (const [requestId, line] of billed) {
      expect(line.charged).toBe(expectedCharge(line.prompt, line.completion));
      const custom = `native-${Number(requestId.slice(created.id.length + 1)) - 1}`;
      expect(line.prompt).toBe(byCustomId.get(custom)!.prompt_tokens);
      expect(line.completion).toBe(byCustomId.get(custom)!.completion_tokens);
    }
  }, 150_000);

  it('keeps a batch mixing a native model with another on the line-by-line path', async () => {
    const input = await client.files.create({ file: chatFile(4, [MODEL, 'sandbox-claude'], 'mixed'), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const done = await waitForBatch(client, created.id, finished);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 4, completed: 4, failed: 0 } });
    expect(await batchRow(created.id)).toMatchObject({ mode: 'lines', upstream_batch_id: null });
  });

  it('cancels a native batch upstream: finished lines stay in the output and billed, the rest are listed as not run and cost nothing', async () => {
    const LINES = 2000;
    const HELD_AFTER = 25;
    // The sandbox runs HELD_AFTER lines of this batch, then holds the rest until the cancel lands.
    await sandboxHold('ncancel-', HELD_AFTER);
    const input = await client.files.create({ file: chatFile(LINES, [MODEL], 'ncancel'), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    // The upstream's own progress shows in request_counts while it runs.
    await waitForBatch(client, created.id, (b) => b.status === 'in_progress' && (b.request_counts?.completed ?? 0) === HELD_AFTER, 60_000);
    const cancelling = await client.batches.cancel(created.id);
    expect(['cancelling', 'cancelled']).toContain(cancelling.status);
    const cancelled = await waitForBatch(client, created.id, finished, 60_000);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelling_at).not.toBeNull();
    expect(cancelled.cancelled_at).not.toBeNull();
    const completed = cancelled.request_counts!.completed;
    expect(completed).toBe(HELD_AFTER);
    expect(cancelled.request_counts!.failed).toBe(0);
    const output = await jsonlOf(client, cancelled.output_file_id!);
    expect(output).toHaveLength(completed);
    const unrun = (await jsonlOf(client, cancelled.error_file_id!)) as unknown as OutputLine[];
    expect(unrun).toHaveLength(LINES - completed - cancelled.request_counts!.failed);
    expect(unrun[0]).toMatchObject({ response: null, error: { code: 'batch_cancelled' } });

    const billed = await eventually(
      'a charge per finished line',
      () => billedLines(created.id),
      (lines) => lines.size === completed && [...lines.values()].every((l) => l.settled),
      30_000,
    );
    for (const line of billed.values()) expect(line.charged).toBe(expectedCharge(line.prompt, line.completion));
    // The holds of the lines never run went back whole.
    const unrunLedger = () =>
      withSql(async (sql) => {
        const { rows } = await sql.query<{ charged: string; released: number }>(
          `SELECT coalesce(-sum(amount_micros), 0) AS charged, count(*) FILTER (WHERE kind = 'release')::int AS released
             FROM ledger_entries WHERE request_id LIKE $1 AND request_id <> ALL($2)`,
          [`${created.id}-%`, [...billed.keys()]],
        );
        return { charged: BigInt(rows[0]!.charged), released: rows[0]!.released };
      });
    await eventually('the holds of the lines never run released whole', unrunLedger, (l) => l.released === unrun.length && l.charged === 0n, 30_000);
    await expect(client.batches.cancel(created.id)).resolves.toMatchObject({ status: 'cancelled' });
  }, 150_000);
});
