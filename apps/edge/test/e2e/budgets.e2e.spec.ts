/**
 * Budgets on keys and projects, held by the wallet in the same step as the balance: a burst on two edge
 * replicas passes exactly as many requests as a hard budget covers, whether the budget is the key's or its
 * project's, and each family refuses the rest in its own dialect, naming the budget and when it resets.
 */
import { BudgetShowReply, BudgetView, type KeyCreated } from '@gateway/contracts';
import Redis from 'ioredis';
import OpenAI from 'openai';
import { runCli } from './support/cli-runner';
import { ask, familyClients, type ChatFamily } from './support/chat-matrix';
import { eventually, storedBalance, withSql } from './support/billing-fixtures';
import { chatFile, finished, jsonlOf, waitForBatch } from './support/batch-fixtures';
import { adminClient, baseUrl, createTenantWithKey, e2eEnv, uniqueSlug } from './support/gateway';

/** A model whose input is free and whose output costs 1 micro-unit a token: a request holds exactly its max_tokens. */
const HOLD_TOKENS = 1000;
const FAMILIES: ChatFamily[] = ['oaic', 'msgc', 'genc'];

function slowCatalog(slug: string) {
  const provider = `prov-${slug}`;
  return {
    model: `slow-${slug}`,
    catalog: {
      providers: [{ id: provider, protocol: 'openai' as const, baseUrl: `${e2eEnv().GW_E2E_SANDBOX_URL}/openai/v1`, apiKey: 'sk-sandbox-upstream' }],
      models: [
        {
          id: `slow-${slug}`,
          displayName: 'Slow answer',
          capability: 'chat' as const,
          public: false,
          provider,
          // Long enough that every request of a burst is admitted or refused before the first one settles.
          upstreamModel: 'sandbox-gpt@latency=4000',
          createdAt: '2025-01-01T00:00:00Z',
          prices: { inputPerMTok: '0', outputPerMTok: '1.00' },
        },
      ],
    },
  };
}

/** Sends `count` requests at once, spread over the keys and the two edge replicas; counts the answers by outcome. */
async function burst(
  keys: readonly KeyCreated[],
  model: string,
  count: number,
): Promise<{ served: number; refused: Array<InstanceType<typeof OpenAI.APIError>>; other: unknown[] }> {
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const client = new OpenAI({ apiKey: keys[i % keys.length]!.key, baseURL: `${baseUrl(i % 2 === 0 ? 1 : 2)}/oaic/v1`, maxRetries: 0, timeout: 60_000 });
      return client.chat.completions.create({ model, max_tokens: HOLD_TOKENS, messages: [{ role: 'user', content: 'hi' }] }).then(
        () => 'served' as const,
        (error: unknown) => error,
      );
    }),
  );
  const refused = outcomes.filter((o): o is InstanceType<typeof OpenAI.APIError> => o instanceof OpenAI.APIError && o.status === 429);
  return { served: outcomes.filter((o) => o === 'served').length, refused, other: outcomes.filter((o) => o !== 'served' && !refused.includes(o as never)) };
}

/** Hard budgets covering three holds and a half: the fourth never fits while the first three run. */
const THREE_AND_A_HALF = ((HOLD_TOKENS * 3.5) / 1_000_000).toFixed(6);

describe('budgets on keys and projects', () => {
  const admin = adminClient();

  it('serves exactly the 3 requests a hard key budget covers out of 30 at once on two replicas; the rest are budget_exceeded naming it', async () => {
    const slug = uniqueSlug('budkey');
    const { model, catalog } = slowCatalog(slug);
    const tenant = await createTenantWithKey({ label: 'budkey', models: [model], catalog, keyName: 'ci' });
    const set = await runCli(['budgets', 'set', '--key', tenant.id, '--amount', THREE_AND_A_HALF, '--period', 'day', '--json']);
    expect(set).toMatchObject({ code: 0, stderr: '' });
    expect(BudgetView.parse(JSON.parse(set.stdout))).toMatchObject({
      scope: 'key',
      key: tenant.id,
      project: 'default',
      mode: 'hard',
      period: 'day',
      alertAt: [50, 80, 100],
    });

    const { served, refused, other } = await burst([tenant], model, 30);
    expect(other).toEqual([]);
    expect(served).toBe(3);
    expect(refused).toHaveLength(27);
    const first = refused[0]!;
    expect(first.code).toBe('budget_exceeded');
    expect(first.type).toBe('budget_exceeded');
    expect(first.message).toMatch(
      /^429 This request does not fit the budget of API key "ci": 0\.0035 per day, 0\.0005 left; it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z\.$/,
    );
    expect(Number(first.headers?.get('retry-after'))).toBeGreaterThan(0);

    // Once the three settle, the budget shows what they were charged, and the ledger says the same.
    const settled = await eventually(
      'the three holds settle',
      async () => BudgetShowReply.parse(JSON.parse((await runCli(['budgets', 'show', '--key', tenant.id, '--json'])).stdout)).budget!,
      (budget) => BigInt(budget.usedMicros) < BigInt(HOLD_TOKENS),
      30_000,
    );
    const charged = await withSql(async (sql) => {
      const { rows } = await sql.query<{ total: string | null }>(`SELECT -sum(amount_micros) AS total FROM ledger_entries WHERE $1 = ANY(budgets)`, [
        `key:${tenant.id}:d${settled.periodStart!.slice(0, 10).replaceAll('-', '')}`,
      ]);
      return BigInt(rows[0]?.total ?? 0);
    });
    expect(BigInt(settled.usedMicros)).toBe(charged);
    expect(charged).toBeGreaterThan(0n);

    // reconcile proves the counter against those charges; one moved by hand is named with the difference.
    expect((await runCli(['reconcile', '--tenant', tenant.slug])).code).toBe(0);
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      const [counter] = (await redis.scan('0', 'MATCH', `*:budget:key:${tenant.id}:*`, 'COUNT', 1_000_000))[1];
      expect(counter).toBeDefined();
      await redis.incrby(counter!, 7);
      const failed = await runCli(['reconcile', '--tenant', tenant.slug]);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain(`budget counter key:${tenant.id}:`);
      expect(failed.stdout).toContain('(key "ci")');
      expect(failed.stdout).toContain('differs by 0.000007');
      await redis.decrby(counter!, 7);
      expect((await runCli(['reconcile', '--tenant', tenant.slug])).code).toBe(0);
    } finally {
      redis.disconnect();
    }
  }, 120_000);

  it('holds three keys of one project to the project budget together', async () => {
    const slug = uniqueSlug('budproj');
    const { model, catalog } = slowCatalog(slug);
    const tenant = await createTenantWithKey({ label: 'budproj', models: [model], catalog });
    await admin.createProject({ tenant: tenant.slug, name: 'search' });
    const keys = await Promise.all([1, 2, 3].map((n) => admin.createKey({ tenant: tenant.slug, name: `k${n}`, project: 'search' })));
    const set = await runCli(['budgets', 'set', '--tenant', tenant.slug, '--project', 'search', '--amount', THREE_AND_A_HALF, '--period', 'month', '--json']);
    expect(set).toMatchObject({ code: 0, stderr: '' });

    const { served, refused, other } = await burst(keys, model, 30);
    expect(other).toEqual([]);
    expect(served).toBe(3);
    expect(refused).toHaveLength(27);
    expect(refused.every((error) => error.code === 'budget_exceeded' && error.message.includes('the budget of project "search": 0.0035 per month'))).toBe(true);
    await eventually(
      'the project budget to reconcile once its holds settle',
      async () => (await runCli(['reconcile', '--tenant', tenant.slug])).code,
      (code) => code === 0,
      30_000,
    );
    // The tenant's default key, outside the project, is not held to it.
    expect(
      await new OpenAI({ apiKey: tenant.key, baseURL: `${baseUrl()}/oaic/v1`, maxRetries: 0 }).chat.completions.create({
        model,
        max_tokens: HOLD_TOKENS,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).toMatchObject({ object: 'chat.completion' });
  }, 120_000);

  it.each(FAMILIES)('%s: a spent budget is the family’s 429, naming the budget', async (family) => {
    const tenant = await createTenantWithKey({ label: `budfam${family}`, keyName: 'frozen' });
    await admin.setBudget({ key: tenant.id, amount: '0', period: 'total' });
    const refused = await ask(familyClients(tenant.key), family, 'sandbox-gpt', { user: 'Hello', stream: false }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429 });
    // The SDKs quote the family's error body; its message names the budget.
    expect(String((refused as Error).message).replaceAll('\\"', '"')).toContain(
      'This request does not fit the budget of API key "frozen": 0.00 in total, 0.00 left; it never resets.',
    );
  });

  it('holds batch lines to their key’s budget like live requests: a spent budget refuses them, charging nothing', async () => {
    const tenant = await createTenantWithKey({ label: 'budbatch', keyName: 'nightly' });
    await admin.setBudget({ key: tenant.id, amount: '0', period: 'day' });
    const before = await storedBalance(tenant.slug);
    const sdk = new OpenAI({ apiKey: tenant.key, baseURL: `${baseUrl()}/oaic/v1`, maxRetries: 0 });
    const run = async (model: string) => {
      const input = await sdk.files.create({ file: chatFile(3, [model], `bud-${model}`), purpose: 'batch' });
      const created = await sdk.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      return waitForBatch(sdk, created.id, finished, 60_000);
    };
    // Run line by line through the chat service: each line is refused as its live request would be.
    const lineByLine = await run('sandbox-claude');
    expect(lineByLine.request_counts).toMatchObject({ total: 3, completed: 0, failed: 3 });
    const errors = await jsonlOf(sdk, lineByLine.error_file_id!);
    expect(errors).toHaveLength(3);
    for (const line of errors) {
      expect(line).toMatchObject({ response: { status_code: 429, body: { error: { code: 'budget_exceeded' } } } });
      expect(JSON.stringify(line)).toContain('the budget of API key \\"nightly\\"');
    }
    // Forwarded whole to a native batch API: its lines are held before it goes, so the batch fails naming the budget.
    const native = await run('sandbox-gpt');
    expect(native.status).toBe('failed');
    expect(native.errors?.data?.[0]).toMatchObject({ code: 'budget_exceeded' });
    expect(native.errors?.data?.[0]?.message).toContain('The batch could not be forwarded: This request does not fit the budget of API key "nightly"');
    expect(await storedBalance(tenant.slug)).toEqual(before);
  }, 120_000);

  it('lets a soft budget pass what a hard one would refuse, and clears a budget', async () => {
    const tenant = await createTenantWithKey({ label: 'budsoft' });
    await admin.setBudget({ key: tenant.id, amount: '0', period: 'week', mode: 'soft' });
    const answer = await ask(familyClients(tenant.key), 'oaic', 'sandbox-gpt', { user: 'Hello', stream: false });
    expect(answer.text).toContain('Hello');
    const budget = await eventually(
      'the soft budget counts the charge',
      () => admin.showBudget({ key: tenant.id }),
      (b) => b !== null && BigInt(b.usedMicros) > 0n,
    );
    expect(budget).toMatchObject({ mode: 'soft', amount: '0.000000', left: '0.000000' });
    const cleared = await runCli(['budgets', 'clear', '--key', tenant.id, '--json']);
    expect(JSON.parse(cleared.stdout)).toEqual({ cleared: true });
    expect(await admin.showBudget({ key: tenant.id })).toBeNull();
  });

  it('refuses a malformed budget naming the flag or field', async () => {
    const tenant = await createTenantWithKey({ label: 'budbad' });
    const noTarget = await runCli(['budgets', 'set', '--amount', '1', '--period', 'day']);
    expect(noTarget.code).not.toBe(0);
    expect(noTarget.stderr).toContain('invalid --tenant: name a key, or a tenant and its project');
    const badPeriod = await runCli(['budgets', 'set', '--key', tenant.id, '--amount', '1', '--period', 'year']);
    expect(badPeriod.stderr).toContain('invalid --period');
    const noProject = await admin.setBudget({ tenant: tenant.slug, project: 'nope', amount: '1', period: 'day' }).catch((error: unknown) => error);
    expect(String((noProject as Error).message)).toContain('has no project "nope"');
    const listed = await runCli(['budgets', 'list', '--tenant', tenant.slug]);
    expect(listed.stdout).toContain(`tenant ${tenant.slug} has no budgets`);
  });
});
