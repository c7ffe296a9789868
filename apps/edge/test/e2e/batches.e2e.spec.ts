/**
 * Batches through the running gateway with the official openai SDK: create, retrieve, list with paging,
 * cancel; a 10,000-line batch over an openai-protocol and a msgc-protocol model, each line billed like a
 * live request; a malformed input file failing with its lines named and nothing charged.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import OpenAI from 'openai';
import { chatFile, chatLine, finished, jsonlOf, waitForBatch } from './support/batch-fixtures';
import { eventually, storedBalance, withSql } from './support/billing-fixtures';
import { baseUrl, createTenantWithKey, e2eEnv, openaiClient, type TenantWithKey } from './support/gateway';
import { liftSandboxHold, sandboxHold } from './support/sandbox-holds';

const usageRowsOf = (batchId: string) =>
  withSql(async (sql) => Number((await sql.query('SELECT count(*) AS n FROM usage_records WHERE client_request_id = $1', [batchId])).rows[0].n));

describe('batches', () => {
  let tenant: TenantWithKey;
  let client: OpenAI;

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'batches', balance: '1000.00' });
    client = openaiClient(tenant.key);
  });

  afterAll(async () => {
    await liftSandboxHold('line bcancel-');
  });

  it('runs a 10,000-line batch over an openai- and a msgc-protocol model: every custom_id once in the output, counts right, each line metered', async () => {
    const input = await client.files.create({ file: chatFile(10_000, ['sandbox-gpt', 'sandbox-claude'], 'big'), purpose: 'batch' });
    const created = await client.batches.create({
      input_file_id: input.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { run: 'big' },
    });
    expect(created).toMatchObject({
      object: 'batch',
      status: 'validating',
      endpoint: '/v1/chat/completions',
      input_file_id: input.id,
      completion_window: '24h',
    });
    expect(created.metadata).toEqual({ run: 'big' });

    const done = await waitForBatch(client, created.id, finished, 240_000);
    expect(done.status).toBe('completed');
    expect(done.request_counts).toEqual({ total: 10_000, completed: 10_000, failed: 0 });
    for (const stamp of ['in_progress_at', 'finalizing_at', 'completed_at'] as const) expect(done[stamp]).toBeGreaterThanOrEqual(done.created_at);
    expect(done.error_file_id).toBeNull();

    const output = await jsonlOf(client, done.output_file_id!);
    expect(output).toHaveLength(10_000);
    expect(new Set(output.map((line) => line.custom_id)).size).toBe(10_000);
    const first = output[0] as { custom_id: string; response: { status_code: number; request_id: string; body: { object: string; model: string } } };
    expect(first.custom_id).toBe('big-0');
    expect(first.response.status_code).toBe(200);
    expect(first.response.body.object).toBe('chat.completion');
    expect((output[1] as typeof first).response.body.model).toContain('sandbox-claude');
    expect((await client.files.retrieve(done.output_file_id!)).purpose).toBe('batch_output');

    await eventually(
      'usage rows of the batch',
      () => usageRowsOf(created.id),
      (n) => n === 10_000,
      30_000,
    );
  }, 270_000);

  it('fails a malformed input file naming the lines, and charges nothing', async () => {
    const owner = await createTenantWithKey({ label: 'batches-bad', balance: '10.00' });
    const sdk = openaiClient(owner.key);
    const before = await storedBalance(owner.slug);
    const lines = [1, 2, 3, 4, 5, 6].map((n) => chatLine(`ok-${n}`, 'sandbox-gpt'));
    lines.push('{"custom_id": "bad json", ');
    lines.push(chatLine('ok-1', 'sandbox-gpt'));
    lines.push(JSON.stringify({ custom_id: 'wrong-url', method: 'POST', url: '/v1/embeddings', body: { model: 'sandbox-embedding', input: 'x' } }));
    const input = await sdk.files.create({ file: new File([lines.join('\n')], 'bad.jsonl'), purpose: 'batch' });
    const created = await sdk.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const failed = await waitForBatch(sdk, created.id, finished);
    expect(failed.status).toBe('failed');
    expect(failed.failed_at).not.toBeNull();
    expect(failed.errors?.data?.map((e) => [e.line, e.code])).toEqual([
      [7, 'invalid_json_line'],
      [8, 'duplicate_custom_id'],
      [9, 'mismatched_url'],
    ]);
    expect(failed.request_counts).toEqual({ total: 0, completed: 0, failed: 0 });
    expect(await usageRowsOf(created.id)).toBe(0);
    expect(await storedBalance(owner.slug)).toEqual(before);
  });

  it('fails a batch whose job fails all its attempts (its input object gone from storage), naming why, instead of leaving it running', async () => {
    const owner = await createTenantWithKey({ label: 'batches-broken' });
    const sdk = openaiClient(owner.key);
    const input = await sdk.files.create({ file: chatFile(3, ['sandbox-gpt'], 'gone'), purpose: 'batch' });
    const objectKey = await withSql(async (sql) => (await sql.query('SELECT object_key FROM files WHERE id = $1', [input.id])).rows[0].object_key as string);
    await rm(path.join(e2eEnv().GW_E2E_STORAGE_DIR, objectKey));
    const created = await sdk.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    // Five attempts backing off from 1 s: about 15 s.
    const failed = await waitForBatch(sdk, created.id, finished, 60_000);
    expect(failed.status).toBe('failed');
    expect(failed.failed_at).not.toBeNull();
    expect(failed.errors?.data).toEqual([
      expect.objectContaining({ code: 'batch_processing_failed', message: expect.stringContaining('Processing this batch failed') }),
    ]);
    expect(await usageRowsOf(created.id)).toBe(0);
  }, 90_000);

  it('refuses a bad create naming the field', async () => {
    const note = await client.files.create({ file: new File(['x'], 'note.txt'), purpose: 'user_data' });
    await expect(client.batches.create({ input_file_id: note.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({
      status: 400,
      error: { param: 'input_file_id' },
    });
    await expect(
      client.batches.create({ input_file_id: note.id, endpoint: '/v1/images' as '/v1/chat/completions', completion_window: '24h' }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'endpoint' } });
    await expect(
      client.batches.create({ input_file_id: 'file-000000000000000000000000', endpoint: '/v1/chat/completions', completion_window: '24h' }),
    ).rejects.toMatchObject({
      status: 404,
    });
  });

  it('lists batches newest first, a page at a time, under /oaic/v1 and /v1', async () => {
    const owner = await createTenantWithKey({ label: 'batches-list' });
    const sdk = openaiClient(owner.key);
    const input = await sdk.files.create({ file: chatFile(2, ['sandbox-gpt'], 'list'), purpose: 'batch' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await sdk.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).id);
    const page = await sdk.batches.list({ limit: 2 });
    expect(page.data.map((b) => b.id)).toEqual([ids[2], ids[1]]);
    expect(page.hasNextPage()).toBe(true);
    const next = await sdk.batches.list({ limit: 2, after: ids[1] });
    expect(next.data.map((b) => b.id)).toEqual([ids[0]]);
    expect(next.hasNextPage()).toBe(false);
    const unprefixed = new OpenAI({ apiKey: owner.key, baseURL: `${baseUrl()}/v1`, maxRetries: 0 });
    const all: string[] = [];
    for await (const batch of unprefixed.batches.list({ limit: 1 })) all.push(batch.id);
    expect(all).toEqual([...ids].reverse());
  });

  it('cancels a running batch: no new lines start, finished ones stay in the output', async () => {
    const LINES = 3000;
    const HELD_AFTER = 40;
    const owner = await createTenantWithKey({ label: 'batches-cancel' });
    const sdk = openaiClient(owner.key);
    // The sandbox answers HELD_AFTER of these lines, then holds the rest until the cancel has landed.
    await sandboxHold('line bcancel-', HELD_AFTER);
    const input = await sdk.files.create({ file: chatFile(LINES, ['sandbox-gpt-slow'], 'bcancel'), purpose: 'batch' });
    const created = await sdk.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await waitForBatch(sdk, created.id, (b) => b.status === 'in_progress' && (b.request_counts?.completed ?? 0) === HELD_AFTER);
    const cancelling = await sdk.batches.cancel(created.id);
    expect(cancelling.status).toBe('cancelling');
    // The lines the sandbox holds are in flight: once they are let go, they finish and stay in the output.
    // The runner stops dispatching within one status poll of the cancel, long before the rest could run.
    await liftSandboxHold('line bcancel-');
    const cancelled = await waitForBatch(sdk, created.id, finished);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelling_at).not.toBeNull();
    expect(cancelled.cancelled_at).not.toBeNull();
    const completed = cancelled.request_counts!.completed;
    expect(completed).toBeGreaterThanOrEqual(HELD_AFTER);
    expect(completed).toBeLessThan(LINES);
    const output = await jsonlOf(sdk, cancelled.output_file_id!);
    expect(output).toHaveLength(completed);
    const unrun = await jsonlOf(sdk, cancelled.error_file_id!);
    expect(unrun.length).toBe(LINES - completed - cancelled.request_counts!.failed);
    expect(unrun[0]).toMatchObject({ response: null, error: { code: 'batch_cancelled' } });
    await expect(sdk.batches.cancel(created.id)).resolves.toMatchObject({ status: 'cancelled' });
  });

  it("answers another tenant's batch id exactly as a missing one", async () => {
    const input = await client.files.create({ file: chatFile(1, ['sandbox-gpt'], 'mine'), purpose: 'batch' });
    const mine = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const intruder = openaiClient((await createTenantWithKey({ label: 'batches-intruder' })).key);
    await expect(intruder.batches.retrieve(mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(intruder.batches.cancel(mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(intruder.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).rejects.toMatchObject({
      status: 404,
    });
    expect((await intruder.batches.list()).data).toEqual([]);
  });
});
