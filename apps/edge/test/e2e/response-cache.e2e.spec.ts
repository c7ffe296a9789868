/**
 * The response cache through the running gateway, with the three official SDKs: a repeated request on a
 * cached tenant is a hit (header, no upstream call, a cache_hit usage row at the hit price), whole or
 * streamed, in every family; no-store bypasses; another tenant misses; a tenant with the cache off never hits.
 */
import type { CacheSettingsInput } from '@gateway/contracts';
import { randomBytes } from 'node:crypto';
import { chargeOf, eventually, withSql } from './support/billing-fixtures';
import { familyClients, type ChatFamily, type FamilyClients } from './support/chat-matrix';
import { adminClient, baseUrl, bearer, createTenantWithKey, e2eEnv, http, uniqueSlug } from './support/gateway';

/** The private model's hit price, micro-units per million tokens ("0.10" in the config file). */
const HIT_PER_MTOK = 100_000n;

interface Served {
  text: string;
  usage: { input: number; output: number };
  cache: string | null;
  requestId: string;
}

interface UsageRow {
  kind: string;
  outcome: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost_micros: string | null;
}

const run = randomBytes(3).toString('hex');
const upstreamKey = `sk-cache-${run}`;
const model = `cache-gpt-${run}`;

/** Upstream calls this spec's provider received (its own key, so parallel specs do not count). */
async function upstreamCalls(): Promise<number> {
  const stats = await http('GET', `${e2eEnv().GW_E2E_SANDBOX_URL}/_sandbox/stats`);
  return (stats.body as { authKeys: Record<string, number> }).authKeys[upstreamKey] ?? 0;
}

function usageRow(requestId: string): Promise<UsageRow> {
  return eventually(
    `usage of ${requestId}`,
    () =>
      withSql(async (sql) => {
        const { rows } = await sql.query<UsageRow>(
          'SELECT kind, outcome, prompt_tokens, completion_tokens, cost_micros::text FROM usage_records WHERE request_id = $1',
          [requestId],
        );
        return rows[0] ?? null;
      }),
    (row) => row !== null,
  ) as Promise<UsageRow>;
}

/** One question in a family's SDK, temperature 0, with the answer header read where each SDK exposes it. */
async function ask(clients: FamilyClients, family: ChatFamily, user: string, stream: boolean, headers: Record<string, string> = {}): Promise<Served> {
  const served: Served = { text: '', usage: { input: 0, output: 0 }, cache: null, requestId: '' };
  const read = (h: { get(name: string): string | null }) => {
    served.cache = h.get('x-gateway-cache');
    served.requestId = h.get('x-request-id') ?? '';
  };
  if (family === 'oaic') {
    const body = { model, temperature: 0, max_tokens: 50, messages: [{ role: 'user' as const, content: user }] };
    if (!stream) {
      const { data, response } = await clients.oaic.chat.completions.create(body, { headers }).withResponse();
      read(response.headers);
      served.text = data.choices[0]!.message.content ?? '';
      served.usage = { input: data.usage!.prompt_tokens, output: data.usage!.completion_tokens };
      return served;
    }
    const { data, response } = await clients.oaic.chat.completions
      .create({ ...body, stream: true, stream_options: { include_usage: true } }, { headers })
      .withResponse();
    read(response.headers);
    for await (const chunk of data) {
      served.text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) served.usage = { input: chunk.usage.prompt_tokens, output: chunk.usage.completion_tokens };
    }
    return served;
  }
  if (family === 'msgc') {
    const body = { model, temperature: 0, max_tokens: 50, messages: [{ role: 'user' as const, content: user }] };
    if (!stream) {
      const { data, response } = await clients.msgc.messages.create(body, { headers }).withResponse();
      read(response.headers);
      served.text = data.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
      served.usage = { input: data.usage.input_tokens, output: data.usage.output_tokens };
      return served;
    }
    const { data, response } = await clients.msgc.messages.create({ ...body, stream: true }, { headers }).withResponse();
    read(response.headers);
    const events: string[] = [];
    for await (const event of data) {
      events.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') served.text += event.delta.text;
      if (event.type === 'message_start') served.usage.input = event.message.usage.input_tokens;
      if (event.type === 'message_delta') {
        // The input count comes with the end when the upstream tells it only there.
        served.usage = { input: event.usage.input_tokens ?? served.usage.input, output: event.usage.output_tokens };
      }
    }
    expect(events.at(-1)).toBe('message_stop');
    return served;
  }
  const request = { model, contents: [{ role: 'user', parts: [{ text: user }] }], config: { temperature: 0, maxOutputTokens: 50, httpOptions: { headers } } };
  const chunks = stream ? await clients.genc.models.generateContentStream(request) : [await clients.genc.models.generateContent(request)];
  for await (const chunk of chunks) {
    const h = chunk.sdkHttpResponse?.headers ?? {};
    served.cache ??= h['x-gateway-cache'] ?? null;
    served.requestId ||= h['x-request-id'] ?? '';
    served.text += chunk.candidates?.[0]?.content?.parts?.map((part) => part.text ?? '').join('') ?? '';
    const usage = chunk.usageMetadata;
    if (usage?.candidatesTokenCount !== undefined) served.usage = { input: usage.promptTokenCount ?? 0, output: usage.candidatesTokenCount };
  }
  return served;
}

describe('the response cache', () => {
  const tenants: Record<'cached' | 'neighbour' | 'off', { slug: string; clients: FamilyClients; key: string }> = {} as never;

  beforeAll(async () => {
    const catalog = {
      providers: [{ id: `cache-up-${run}`, protocol: 'openai' as const, baseUrl: `${e2eEnv().GW_E2E_SANDBOX_URL}/openai/v1`, apiKey: upstreamKey }],
      models: [
        {
          id: model,
          displayName: 'Cached GPT',
          capability: 'chat' as const,
          public: false,
          provider: `cache-up-${run}`,
          upstreamModel: 'sandbox-gpt',
          createdAt: '2025-01-01T00:00:00Z',
          prices: { inputPerMTok: '0.50', outputPerMTok: '1.50', cacheHitPerMTok: '0.10' },
        },
      ],
    };
    const settings: Record<keyof typeof tenants, CacheSettingsInput> = {
      cached: { mode: 'read_write', ttlSeconds: 600 },
      neighbour: { mode: 'read_write', ttlSeconds: 600 },
      off: { mode: 'off' },
    };
    for (const name of Object.keys(settings) as (keyof typeof tenants)[]) {
      const tenant = await createTenantWithKey({ label: `rc-${name}`, models: [model], catalog: name === 'cached' ? catalog : undefined });
      // The neighbour's cache comes from the config file's tenant entry, the others' from `gatewayctl cache set`.
      if (name === 'neighbour') await adminClient().apply({ tenants: [{ slug: tenant.slug, billing: 'payg', models: [model], cache: settings[name] }] });
      else await adminClient().setCache({ tenant: tenant.slug, mode: settings[name].mode ?? 'off', ttlSeconds: settings[name].ttlSeconds });
      tenants[name] = { slug: tenant.slug, key: tenant.key, clients: familyClients(tenant.key) };
    }
  });

  it.each(['oaic', 'msgc', 'genc'] as ChatFamily[])(
    '%s: the second ask is a hit, whole and streamed from the whole entry, billed at the hit price',
    async (family) => {
      const { clients } = tenants.cached;
      const user = `cache me in ${family} ${uniqueSlug()}`;
      const before = await upstreamCalls();
      const first = await ask(clients, family, user, false);
      expect(first.cache).toBe('miss');
      expect(await upstreamCalls()).toBe(before + 1);

      const whole = await ask(clients, family, user, false);
      const streamed = await ask(clients, family, user, true);
      expect([whole.cache, streamed.cache]).toEqual(['hit', 'hit']);
      expect(await upstreamCalls()).toBe(before + 1);
      for (const hit of [whole, streamed]) {
        expect(hit.text).toBe(first.text);
        expect(hit.usage).toEqual(first.usage);
      }

      const price = (BigInt(first.usage.input + first.usage.output) * HIT_PER_MTOK + 999_999n) / 1_000_000n;
      expect(price).toBeGreaterThan(0n);
      for (const hit of [whole, streamed]) {
        expect(await usageRow(hit.requestId)).toEqual({
          kind: 'cache_hit',
          outcome: 'cache_hit',
          prompt_tokens: first.usage.input,
          completion_tokens: first.usage.output,
          cost_micros: price.toString(),
        });
        // The hold was the hit's price, and the ledger settled it at that.
        expect((await chargeOf(hit.requestId)).charged).toBe(price);
      }
      expect((await usageRow(first.requestId)).outcome).toBe('ok');
    },
  );

  it.each(['oaic', 'msgc', 'genc'] as ChatFamily[])('%s: a live stream that completed is stored whole, for streamed and whole asks', async (family) => {
    const { clients } = tenants.cached;
    const user = `streamed first in ${family} ${uniqueSlug()}`;
    const before = await upstreamCalls();
    const live = await ask(clients, family, user, true);
    expect(live.cache).toBe('miss');
    const streamed = await eventually(
      'the stored stream',
      () => ask(clients, family, user, true),
      (served) => served.cache === 'hit',
    );
    const whole = await ask(clients, family, user, false);
    expect(whole.cache).toBe('hit');
    expect(await upstreamCalls()).toBe(before + 1);
    for (const hit of [streamed, whole]) {
      expect(hit.text).toBe(live.text);
      expect(hit.usage).toEqual(live.usage);
    }
  });

  it('oaic completions and responses: a streamed ask replays the whole entry as its own events', async () => {
    const { oaic } = tenants.cached.clients;
    const before = await upstreamCalls();
    const prompt = `complete me ${uniqueSlug()}`;
    const completion = { model, prompt, temperature: 0, max_tokens: 20 };
    const { data: whole, response: first } = await oaic.completions.create(completion).withResponse();
    expect(first.headers.get('x-gateway-cache')).toBe('miss');
    const { data: chunks, response: replayed } = await oaic.completions.create({ ...completion, stream: true }).withResponse();
    expect(replayed.headers.get('x-gateway-cache')).toBe('hit');
    let text = '';
    for await (const chunk of chunks) text += chunk.choices[0]?.text ?? '';
    expect(text).toBe(whole.choices[0]!.text);

    const asked = { model, input: `respond to me ${uniqueSlug()}`, temperature: 0, max_output_tokens: 20 };
    const { data: response, response: answered } = await oaic.responses.create(asked).withResponse();
    expect(answered.headers.get('x-gateway-cache')).toBe('miss');
    const { data: events, response: streamed } = await oaic.responses.create({ ...asked, stream: true }).withResponse();
    expect(streamed.headers.get('x-gateway-cache')).toBe('hit');
    let deltas = '';
    let completed: { id: string; usage?: { output_tokens: number } | null } | null = null;
    for await (const event of events) {
      if (event.type === 'response.output_text.delta') deltas += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    const wholeText = response.output
      .flatMap((item) => (item.type === 'message' ? item.content : []))
      .map((part) => (part.type === 'output_text' ? part.text : ''))
      .join('');
    expect(deltas).toBe(wholeText);
    expect(completed).toMatchObject({ id: response.id, usage: { output_tokens: response.usage!.output_tokens } });
    expect(await upstreamCalls()).toBe(before + 2);
  });

  it('no-store bypasses a stored entry and goes upstream', async () => {
    const { clients } = tenants.cached;
    const user = `bypass ${uniqueSlug()}`;
    await ask(clients, 'oaic', user, false);
    const before = await upstreamCalls();
    const bypassed = await ask(clients, 'oaic', user, false, { 'x-gateway-cache': 'no-store' });
    expect(bypassed.cache).toBe('bypass');
    expect(bypassed.text).toContain(user);
    expect(await upstreamCalls()).toBe(before + 1);
  });

  it('never gives one tenant the answer another stored; a tenant with the cache off never hits and gets no header', async () => {
    const user = `shared question ${uniqueSlug()}`;
    await ask(tenants.cached.clients, 'oaic', user, false);
    const before = await upstreamCalls();
    expect((await ask(tenants.neighbour.clients, 'oaic', user, false)).cache).toBe('miss');
    const off = [await ask(tenants.off.clients, 'oaic', user, false), await ask(tenants.off.clients, 'oaic', user, false)];
    expect(off.map((served) => served.cache)).toEqual([null, null]);
    expect(await upstreamCalls()).toBe(before + 3);
  });

  it("reconciles the cached tenant's books, hits included", async () => {
    const report = await eventually(
      'the books to reconcile',
      () => adminClient().reconcile({ tenant: tenants.cached.slug }),
      (r) => r.ok,
    );
    expect(report.checked).toBeGreaterThan(0);
  });

  it('refuses a bad x-gateway-cache value in the family dialect, naming the header', async () => {
    const result = await http('POST', `${baseUrl()}/oaic/v1/chat/completions`, {
      headers: { ...bearer(tenants.cached.key), 'x-gateway-cache': 'forever' },
      json: { model, temperature: 0, messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({
      error: { type: 'invalid_request_error', param: 'x-gateway-cache', message: expect.stringContaining('x-gateway-cache') },
    });
  });
});
