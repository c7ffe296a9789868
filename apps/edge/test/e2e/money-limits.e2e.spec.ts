/**
 * Money limits through the running gateway with the official openai SDK: an assistants run is held for
 * what the upstream can bill (the thread's messages and the assistant's instructions as stored, plus its
 * caps, sent upstream), so one big run or four concurrent ones on a small balance never charge beyond it
 * and never take it below zero; uploads, instructions and messages count toward the tenant's storage
 * quota (FILES_TENANT_QUOTA_BYTES); line-by-line batch lines on a small balance wait for each other's
 * holds instead of failing.
 */
import OpenAI, { APIError } from 'openai';
import { finished, jsonlOf, waitForBatch } from './support/batch-fixtures';
import { eventually, withSql } from './support/billing-fixtures';
import { E2E_FILES_MAX_BYTES, E2E_FILES_TENANT_QUOTA_BYTES } from './support/files-fixtures';
import { adminClient, createTenantWithKey, openaiClient, uniqueSlug } from './support/gateway';

/** 0.50 per million input tokens (as in the probe that found runs spending beyond the balance), 1.50 per million output tokens. */
const PRICES = { inputPerMTok: '0.50', outputPerMTok: '1.50' };

/** Text the sandbox counts as `words` tokens (one a word). */
const words = (words: number) => 'word '.repeat(words).trim();

const liveBalance = async (slug: string) => BigInt((await adminClient().balance(slug)).balanceMicros);

/** What the ledger charged the tenant in all (top-ups aside), once nothing is held any more. */
async function charged(slug: string): Promise<bigint> {
  return withSql(async (sql) => {
    const { rows } = await sql.query<{ total: string | null }>(
      `SELECT -SUM(l.amount_micros) AS total FROM ledger_entries l JOIN tenants t ON t.id = l.tenant_id WHERE t.slug = $1 AND l.kind <> 'topup'`,
      [slug],
    );
    return BigInt(rows[0]?.total ?? 0);
  });
}

/** Every hold of the tenant ended (each reserve met by its settle or release in the ledger). */
async function holdsEnded(slug: string): Promise<boolean> {
  return withSql(async (sql) => {
    const { rows } = await sql.query<{ open: string }>(
      `SELECT count(*) AS open FROM ledger_entries r JOIN tenants t ON t.id = r.tenant_id
       WHERE t.slug = $1 AND r.kind = 'reserve'
         AND NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.request_id = r.request_id AND s.kind IN ('settle', 'release'))`,
      [slug],
    );
    return rows[0]?.open === '0';
  });
}

/**
 * The tenant's live balance and what the ledger charged, once every hold has ended and the two agree
 * (a lease gives back what it held beyond its requests' charges when it closes).
 */
async function settled(slug: string, topUp: bigint): Promise<{ balance: bigint; charged: bigint }> {
  await eventually('every hold ended', () => holdsEnded(slug), Boolean);
  return eventually(
    'the balance and the ledger agree',
    async () => ({ balance: await liveBalance(slug), charged: await charged(slug) }),
    (total) => total.charged === topUp - total.balance,
    30_000,
  );
}

async function refusal(work: Promise<unknown>): Promise<APIError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(APIError);
  return error as APIError;
}

describe('money limits', () => {
  const model = `money-${uniqueSlug('gpt')}`;
  const assistantsModel = {
    id: model,
    displayName: 'Assistants model (money limits)',
    capability: 'chat' as const,
    public: false,
    provider: 'sandbox-openai',
    upstreamModel: 'sandbox-gpt',
    assistants: true,
    maxOutputTokens: 512,
    prices: PRICES,
  };
  const tenantOf = (label: string, balance: string) => createTenantWithKey({ label, balance, models: [model], catalog: { models: [assistantsModel] } });

  it('refuses a run on a thread with large messages and instructions a small balance cannot cover, before it starts: the balance stays whole', async () => {
    const tenant = await tenantOf('money-big-run', '0.02');
    const client = openaiClient(tenant.key);
    // About 450,000 prompt tokens upstream: 0.225 at these prices, more than ten times the balance.
    const assistant = await client.beta.assistants.create({ model, instructions: words(50_000) });
    const thread = await client.beta.threads.create({ messages: [{ role: 'user', content: words(50_000) }] });
    for (let i = 0; i < 7; i++) await client.beta.threads.messages.create(thread.id, { role: 'user', content: words(50_000) });

    const refused = await refusal(client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id }));
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: 'insufficient_quota' });
    expect(await liveBalance(tenant.slug)).toBe(20_000n);
    expect(await charged(tenant.slug)).toBe(0n);

    // With the client's own max_prompt_tokens the run is held for that and sent with it: the upstream ends it
    // incomplete at the cap rather than bill the whole thread.
    const bounded = await client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id, max_prompt_tokens: 1_000 });
    expect(bounded).toMatchObject({ status: 'incomplete', max_prompt_tokens: 1_000, max_completion_tokens: 512 });
    expect(bounded.usage!.prompt_tokens).toBeLessThanOrEqual(1_000);

    // A run on a small thread goes through, with the caps it was held for sent upstream.
    const small = await client.beta.assistants.create({ model, instructions: 'Answer briefly.' });
    const smallThread = await client.beta.threads.create({ messages: [{ role: 'user', content: 'Hello there' }] });
    const run = await client.beta.threads.runs.create(smallThread.id, { assistant_id: small.id });
    expect(run.status).toBe('completed');
    expect(run.max_completion_tokens).toBe(512);
    expect(run.max_prompt_tokens).toBeGreaterThanOrEqual(256);
    expect(run.usage!.prompt_tokens).toBeLessThanOrEqual(run.max_prompt_tokens!);

    const total = await settled(tenant.slug, 20_000n);
    expect(total.balance).toBeGreaterThanOrEqual(0n);
    expect(total.charged).toBeGreaterThan(0n);
    expect(total.charged).toBeLessThanOrEqual(20_000n);
  }, 120_000);

  it('draws four concurrent runs from one small balance: those it cannot cover are refused, nothing is charged beyond it', async () => {
    const tenant = await tenantOf('money-four-runs', '0.05');
    const client = openaiClient(tenant.key);
    const assistant = await client.beta.assistants.create({ model, instructions: 'Answer briefly.' });
    // Each run reads about 32,000 tokens (0.016): four of them would charge 0.064 on a balance of 0.05.
    const threads = await Promise.all(Array.from({ length: 4 }, () => client.beta.threads.create({ messages: [{ role: 'user', content: words(32_000) }] })));
    const outcomes = await Promise.allSettled(threads.map((thread) => client.beta.threads.runs.create(thread.id, { assistant_id: assistant.id })));
    const served = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as APIError] : []));
    expect(served.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const error of refused) expect(error).toMatchObject({ status: 429, error: { code: 'insufficient_quota' } });

    const total = await settled(tenant.slug, 50_000n);
    expect(total.balance).toBeGreaterThanOrEqual(0n);
    expect(total.charged).toBeGreaterThan(0n);
    expect(total.charged).toBeLessThanOrEqual(50_000n);
  }, 120_000);

  it('answers an upload beyond the storage quota 413 naming FILES_TENANT_QUOTA_BYTES, counts messages too, and gives the room back when a file is deleted', async () => {
    const tenant = await createTenantWithKey({ label: 'money-quota' });
    const client = openaiClient(tenant.key);
    const size = E2E_FILES_MAX_BYTES - 1024;
    const upload = (name: string) => client.files.create({ file: new File([Buffer.alloc(size, 0x61)], name), purpose: 'user_data' });
    const kept = [];
    for (let i = 0; i < Math.floor(E2E_FILES_TENANT_QUOTA_BYTES / size); i++) kept.push(await upload(`fill-${i}.txt`));

    const over = await refusal(upload('over.txt'));
    expect(over.status).toBe(413);
    expect(over.message).toContain('FILES_TENANT_QUOTA_BYTES');
    expect(over.error).toMatchObject({ param: 'FILES_TENANT_QUOTA_BYTES' });
    // The refused upload is not listed.
    expect((await client.files.list()).data.map((file) => file.filename)).not.toContain('over.txt');

    // Messages count toward the same quota.
    const thread = await client.beta.threads.create({});
    const message = await refusal(client.beta.threads.messages.create(thread.id, { role: 'user', content: words(50_000) }));
    expect(message.status).toBe(413);
    expect(message.error).toMatchObject({ param: 'FILES_TENANT_QUOTA_BYTES' });

    await client.files.delete(kept[0]!.id);
    expect((await upload('after-delete.txt')).bytes).toBe(size);
  }, 120_000);

  /** A tenant with a model each batch line below is held 0.02 for (2,000 output tokens at 10.00 a million), and costs far less. */
  const batchTenant = (balance: string) => {
    const batchModel = `money-batch-${uniqueSlug('gpt')}`;
    return createTenantWithKey({
      label: 'money-batch',
      balance,
      models: [batchModel],
      catalog: {
        models: [
          {
            id: batchModel,
            displayName: 'Batch model (money limits)',
            capability: 'chat',
            public: false,
            provider: 'sandbox-openai',
            upstreamModel: 'sandbox-gpt',
            maxOutputTokens: 4096,
            prices: { inputPerMTok: '0.10', outputPerMTok: '10.00' },
          },
        ],
      },
    }).then((tenant) => ({ tenant, batchModel }));
  };

  const runBatch = async (client: OpenAI, model: string, count: number) => {
    const lines = Array.from({ length: count }, (_, i) =>
      JSON.stringify({
        custom_id: `fair-${i}`,
        method: 'POST',
        url: '/v1/chat/completions',
        body: { model, messages: [{ role: 'user', content: `line ${i}` }], max_tokens: 2_000 },
      }),
    );
    const input = await client.files.create({ file: new File([lines.join('\n') + '\n'], 'fair.jsonl'), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    // Holds end when the usage writer records each line, which a loaded machine may take a while to.
    return waitForBatch(client, created.id, finished, 150_000);
  };

  it('runs line-by-line batch lines on a small balance one after another instead of failing them with 429', async () => {
    // Two lines' holds fit in the balance at once.
    const { tenant, batchModel } = await batchTenant('0.05');
    const client: OpenAI = openaiClient(tenant.key);
    const done = await runBatch(client, batchModel, 8);
    const output = done.output_file_id ? await jsonlOf(client, done.output_file_id) : [];
    const errors = done.error_file_id ? await jsonlOf(client, done.error_file_id) : [];
    expect({ status: done.status, counts: done.request_counts, errors: errors.slice(0, 2) }).toEqual({
      status: 'completed',
      counts: { total: 8, completed: 8, failed: 0 },
      errors: [],
    });
    expect(output).toHaveLength(8);

    const total = await settled(tenant.slug, 50_000n);
    expect(total.balance).toBeGreaterThanOrEqual(0n);
    expect(total.charged).toBeGreaterThan(0n);
  }, 200_000);

  it('fails at once, with 429, the lines a balance cannot cover even alone', async () => {
    const { tenant, batchModel } = await batchTenant('0.01');
    const client: OpenAI = openaiClient(tenant.key);
    const started = Date.now();
    const done = await runBatch(client, batchModel, 4);
    // Well before BATCH_FUNDS_WAIT_MS (120 s): no line waited for funds that could never come.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect({ status: done.status, counts: done.request_counts }).toEqual({ status: 'completed', counts: { total: 4, completed: 0, failed: 4 } });
    const errors = await jsonlOf(client, done.error_file_id!);
    for (const line of errors) expect(line).toMatchObject({ response: { status_code: 429, body: { error: { code: 'insufficient_quota' } } } });
    expect(await liveBalance(tenant.slug)).toBe(10_000n);
  }, 60_000);
});
