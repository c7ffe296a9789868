/**
 * Reservations are true upper bounds, through the running gateway: the upstream is asked for no more
 * output than was reserved (in every family and on crossed paths), `n` and images are reserved for,
 * caps above the model's limit are refused, and usage an upstream reports beyond the hold is charged
 * as an overrun as far as the balance reaches, the rest written off (a balance never goes below zero).
 * Charges are read per tenant (each test's tenants are its own).
 */
import { type GatewayConfigInput } from '@gateway/contracts';
import { eventually, withSql } from './support/billing-fixtures';
import { adminClient, baseUrl, bearer, createTenantWithKey, http, msgcHeaders, uniqueSlug, type HttpResult, type TenantWithKey } from './support/gateway';

/** Output limit of the test models: small, so that a body without a cap would be answered far beyond it. */
const LIMIT = 50;
/** 1000 micros an input token, 2000 an output token: charges are exact integers. */
const PRICES = { inputPerMTok: '1000', outputPerMTok: '2000' };
const IN = 1000n;
const OUT = 2000n;
/** A prompt the sandbox echoes back as ~300 tokens. */
const LONG = 'word '.repeat(300).trim();

interface CappedModels {
  gpt: string;
  claude: string;
  gemini: string;
}

type ModelInput = NonNullable<GatewayConfigInput['models']>[number];

function cappedModels(): { ids: CappedModels; models: ModelInput[] } {
  const stamp = uniqueSlug('cap');
  const ids = { gpt: `gpt-${stamp}`, claude: `claude-${stamp}`, gemini: `gemini-${stamp}` };
  const model = (id: string, provider: string, upstreamModel: string): ModelInput => ({
    id,
    displayName: id,
    capability: 'chat',
    public: false,
    provider,
    upstreamModel,
    maxOutputTokens: LIMIT,
    prices: PRICES,
  });
  return {
    ids,
    models: [
      model(ids.gpt, 'sandbox-openai', 'sandbox-gpt'),
      model(ids.claude, 'sandbox-anthropic', 'sandbox-claude'),
      model(ids.gemini, 'sandbox-gemini', 'sandbox-gemini'),
    ],
  };
}

async function tenantWithCappedModels(label: string, balance: string): Promise<TenantWithKey & { models: CappedModels }> {
  const { ids, models } = cappedModels();
  const tenant = await createTenantWithKey({ label, balance, models: Object.values(ids), catalog: { models } });
  return { ...tenant, models: ids };
}

const oaic = (key: string, path: string, json: Record<string, unknown>) => http('POST', `${baseUrl()}/oaic/v1/${path}`, { headers: bearer(key), json });
const msgc = (key: string, json: Record<string, unknown>) => http('POST', `${baseUrl()}/msgc/v1/messages`, { headers: msgcHeaders(key), json });
const genc = (key: string, model: string, json: Record<string, unknown>) =>
  http('POST', `${baseUrl()}/genc/v1beta/models/${model}:generateContent`, { headers: bearer(key), json });
const user = (content: unknown) => [{ role: 'user', content }];
const gencText = (text: string) => [{ role: 'user', parts: [{ text }] }];

interface UsageRow {
  prompt_tokens: number;
  completion_tokens: number;
  outcome: string;
}

async function usageRows(slug: string): Promise<UsageRow[]> {
  return withSql(async (sql) => {
    const { rows } = await sql.query<UsageRow>(
      'SELECT u.prompt_tokens, u.completion_tokens, u.outcome FROM usage_records u JOIN tenants t ON t.id = u.tenant_id WHERE t.slug = $1',
      [slug],
    );
    return rows;
  });
}

interface LedgerRow {
  kind: string;
  amount: bigint;
  note: string | null;
}

async function ledgerRows(slug: string): Promise<LedgerRow[]> {
  return withSql(async (sql) => {
    const { rows } = await sql.query<{ kind: string; amount_micros: string; note: string | null }>(
      `SELECT l.kind, l.amount_micros, l.note FROM ledger_entries l JOIN tenants t ON t.id = l.tenant_id WHERE t.slug = $1 AND l.kind <> 'topup' ORDER BY l.id`,
      [slug],
    );
    return rows.map((r) => ({ kind: r.kind, amount: BigInt(r.amount_micros), note: r.note }));
  });
}

/** What the ledger charged the tenant in all: minus the sum of its entries other than top-ups. */
const chargedOf = (rows: LedgerRow[]) => -rows.reduce((sum, r) => sum + r.amount, 0n);
const costOf = (rows: UsageRow[]) => rows.reduce((sum, r) => sum + IN * BigInt(r.prompt_tokens) + OUT * BigInt(r.completion_tokens), 0n);
const liveBalance = async (slug: string) => BigInt((await adminClient().balance(slug)).balanceMicros);

/** Every served request of the tenant is in usage_records and the ledger has charged exactly their cost. */
async function settledAtCost(slug: string, served: number): Promise<{ usage: UsageRow[]; ledger: LedgerRow[] }> {
  const usage = await eventually(
    'usage rows',
    () => usageRows(slug),
    (rows) => rows.filter((r) => r.outcome === 'ok').length === served,
  );
  const cost = costOf(usage.filter((r) => r.outcome === 'ok'));
  const ledger = await eventually(
    'the ledger charges the usage',
    () => ledgerRows(slug),
    (rows) => chargedOf(rows) === cost,
  );
  return { usage, ledger };
}

function expectInvalid(result: HttpResult, family: 'oaic' | 'msgc' | 'genc', field: string): void {
  expect(result.status).toBe(400);
  if (family === 'oaic') expect(result.body).toMatchObject({ error: { type: 'invalid_request_error', param: field } });
  if (family === 'msgc') expect(result.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  if (family === 'genc') expect(result.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
  expect(result.text).toContain(field);
}

describe('reservations are true upper bounds', () => {
  it("sends the model's output limit upstream when the client names no cap, in every family and crossed, and charges the actual usage", async () => {
    const tenant = await tenantWithCappedModels('cap', '100.00');
    const { gpt, claude, gemini } = tenant.models;
    const answers = {
      chat: await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user(LONG) }),
      chatToAnthropic: await oaic(tenant.key, 'chat/completions', { model: claude, messages: user(LONG) }),
      chatToGemini: await oaic(tenant.key, 'chat/completions', { model: gemini, messages: user(LONG) }),
      completions: await oaic(tenant.key, 'completions', { model: gpt, prompt: LONG }),
      responses: await oaic(tenant.key, 'responses', { model: gpt, input: LONG }),
      genc: await genc(tenant.key, gemini, { contents: gencText(LONG) }),
      gencToOpenai: await genc(tenant.key, gpt, { contents: gencText(LONG) }),
    };
    for (const [path, answer] of Object.entries(answers)) expect([path, answer.status]).toEqual([path, 200]);
    type Body = {
      usage?: { completion_tokens?: number; output_tokens?: number };
      usageMetadata?: { candidatesTokenCount?: number };
      choices?: Array<{ finish_reason?: string }>;
    };
    const outputOf = (answer: HttpResult) => {
      const body = answer.body as Body;
      return body.usage?.completion_tokens ?? body.usage?.output_tokens ?? body.usageMetadata?.candidatesTokenCount;
    };
    for (const [path, answer] of Object.entries(answers)) expect([path, outputOf(answer)]).toEqual([path, LIMIT]);
    expect((answers.chat.body as Body).choices?.[0]?.finish_reason).toBe('length');

    // Streams the same: the last chunk's usage reports the cap.
    const streams = {
      chat: await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user(LONG), stream: true, stream_options: { include_usage: true } }),
      chatToAnthropic: await oaic(tenant.key, 'chat/completions', {
        model: claude,
        messages: user(LONG),
        stream: true,
        stream_options: { include_usage: true },
      }),
      genc: await http('POST', `${baseUrl()}/genc/v1beta/models/${gemini}:streamGenerateContent?alt=sse`, {
        headers: bearer(tenant.key),
        json: { contents: gencText(LONG) },
      }),
    };
    expect(streams.chat.text).toContain(`"completion_tokens":${LIMIT}`);
    expect(streams.chatToAnthropic.text).toContain(`"completion_tokens":${LIMIT}`);
    expect(streams.genc.text).toContain(`"candidatesTokenCount":${LIMIT}`);

    const { usage } = await settledAtCost(tenant.slug, Object.keys(answers).length + Object.keys(streams).length);
    expect(usage.every((row) => row.completion_tokens === LIMIT)).toBe(true);
  }, 60_000);

  it('refuses a cap above the model limit with a 400 naming the field in every family, even for a tenant that could not pay for it', async () => {
    const tenant = await tenantWithCappedModels('cap-limit', '0.01');
    const { gpt, claude, gemini } = tenant.models;
    expectInvalid(await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user('hi'), max_tokens: LIMIT + 1 }), 'oaic', 'max_tokens');
    expectInvalid(
      await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user('hi'), max_completion_tokens: 1_000_000 }),
      'oaic',
      'max_completion_tokens',
    );
    expectInvalid(await oaic(tenant.key, 'chat/completions', { model: claude, messages: user('hi'), max_tokens: LIMIT + 1 }), 'oaic', 'max_tokens');
    expectInvalid(await oaic(tenant.key, 'completions', { model: gpt, prompt: 'hi', max_tokens: LIMIT + 1 }), 'oaic', 'max_tokens');
    expectInvalid(await oaic(tenant.key, 'responses', { model: gpt, input: 'hi', max_output_tokens: LIMIT + 1 }), 'oaic', 'max_output_tokens');
    expectInvalid(await msgc(tenant.key, { model: claude, max_tokens: LIMIT + 1, messages: user('hi') }), 'msgc', 'max_tokens');
    expectInvalid(await msgc(tenant.key, { model: gpt, max_tokens: LIMIT + 1, messages: user('hi') }), 'msgc', 'max_tokens');
    expectInvalid(
      await genc(tenant.key, gemini, { contents: gencText('hi'), generationConfig: { maxOutputTokens: LIMIT + 1 } }),
      'genc',
      'generationConfig.maxOutputTokens',
    );
    expectInvalid(await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user('hi'), n: 129 }), 'oaic', 'n');
    expectInvalid(
      await genc(tenant.key, gemini, { contents: gencText('hi'), generationConfig: { candidateCount: 9 } }),
      'genc',
      'generationConfig.candidateCount',
    );
    // At the limit the request is well formed, and only then a question of funds.
    const atLimit = await msgc(tenant.key, { model: claude, max_tokens: LIMIT, messages: user('hi') });
    expect(atLimit.status).toBe(429);
    expect(atLimit.body).toMatchObject({ type: 'error', error: { type: 'billing_error' } });
  }, 30_000);

  it('reserves n answers (and candidateCount candidates): a balance that covers one but not three refuses up front', async () => {
    const tenant = await tenantWithCappedModels('cap-n', '0.20');
    const { gpt, gemini } = tenant.models;
    const before = await liveBalance(tenant.slug);
    // One answer: ~30 input tokens and 50 output, about 0.13; three answers reserve about 0.33.
    const three = await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user('hi'), max_tokens: LIMIT, n: 3 });
    expect(three.status).toBe(429);
    expect(three.body).toMatchObject({ error: { code: 'insufficient_quota' } });
    const candidates = await genc(tenant.key, gemini, { contents: gencText('hi'), generationConfig: { candidateCount: 3 } });
    expect(candidates.status).toBe(429);
    expect(await liveBalance(tenant.slug)).toBe(before);
    expect((await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user('hi'), max_tokens: LIMIT })).status).toBe(200);
  }, 30_000);

  it('counts 200 images by URL in the reservation: a balance covering the text but not the images is refused before any upstream call', async () => {
    const images = Array.from({ length: 200 }, (_, i) => ({ type: 'image_url', image_url: { url: `https://upload.wikimedia.org/gallery/photo-${i}.png` } }));
    const body = (model: string) => ({ model, max_tokens: 10, messages: user([{ type: 'text', text: 'Describe these.' }, ...images]) });
    // The blocks' text alone is about 9,000 tokens (9.00 at these prices); 200 images at 1,600 tokens are 320.00.
    const poor = await tenantWithCappedModels('cap-img', '30.00');
    const refused = await oaic(poor.key, 'chat/completions', body(poor.models.gpt));
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'insufficient_quota' } });
    expect(await liveBalance(poor.slug)).toBe(30_000_000n);
    expect((await usageRows(poor.slug)).filter((r) => r.outcome === 'ok')).toEqual([]);

    const rich = await tenantWithCappedModels('cap-img-rich', '400.00');
    expect((await oaic(rich.key, 'chat/completions', body(rich.models.gpt))).status).toBe(200);
    await settledAtCost(rich.slug, 1);
  }, 30_000);

  it('charges usage an upstream reports beyond the hold as far as the balance reaches, as an overrun, writes off the rest, and refuses until a top-up', async () => {
    // The sandbox counts each "!" as a token; the estimate, two characters a token, reserves half of that.
    const bangs = '!'.repeat(4000);
    const tenant = await tenantWithCappedModels('overrun', '3.00');
    const { gpt } = tenant.models;
    const first = await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user(bangs), max_tokens: 1 });
    expect(first.status).toBe(200);
    const usage = await eventually(
      'usage rows',
      () => usageRows(tenant.slug),
      (rows) => rows.filter((r) => r.outcome === 'ok').length === 1,
    );
    const actual = costOf(usage);
    expect(actual).toBeGreaterThan(3_000_000n);
    // The whole balance is charged, never more: the usage beyond it is written off.
    const ledger = await eventually(
      'the ledger charges the balance and writes off the rest',
      () => ledgerRows(tenant.slug),
      (rows) => chargedOf(rows) === 3_000_000n && rows.some((r) => r.kind === 'write_off'),
    );
    const reserve = ledger.find((r) => r.kind === 'reserve')!;
    expect(ledger.find((r) => r.kind === 'overrun')?.amount).toBe(-(3_000_000n + reserve.amount));
    expect(ledger.find((r) => r.kind === 'settle')?.amount).toBe(0n);
    expect(ledger.find((r) => r.kind === 'write_off')).toMatchObject({ amount: 0n, note: expect.stringContaining(`written off: ${actual - 3_000_000n} `) });
    expect(await liveBalance(tenant.slug)).toBe(0n);

    const refused = await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user('hi'), max_tokens: 1 });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: 'insufficient_quota' } });
    await adminClient().topup({ tenant: tenant.slug, amount: '1.00' });
    expect((await oaic(tenant.key, 'chat/completions', { model: gpt, messages: user('hi'), max_tokens: 1 })).status).toBe(200);
  }, 30_000);

  it('charges a request admitted under a balance lease in full too, the excess ledgered as an overrun', async () => {
    const tenant = await tenantWithCappedModels('overrun-lease', '1000.00');
    const answer = await oaic(tenant.key, 'chat/completions', { model: tenant.models.gpt, messages: user('!'.repeat(4000)), max_tokens: 1 });
    expect(answer.status).toBe(200);
    const { usage, ledger } = await settledAtCost(tenant.slug, 1);
    const actual = costOf(usage);
    expect(ledger.map((r) => r.kind).sort()).toEqual(['overrun', 'settle']);
    const settle = ledger.find((r) => r.kind === 'settle')!;
    const overrun = ledger.find((r) => r.kind === 'overrun')!;
    expect(overrun.amount).toBeLessThan(0n);
    expect(settle.amount + overrun.amount).toBe(-actual);
    // What the lease held beyond the charge comes back once it closes.
    await eventually(
      'the lease closes',
      () => liveBalance(tenant.slug),
      (balance) => balance === 1_000_000_000n - actual,
    );
  }, 30_000);
});
