/**
 * Reasoning and prompt caching through the running gateway: each family asks a crossed model to think
 * and gets the reasoning in its own shape, its tokens in its usage field and charged as output; thinking
 * sent back with its signature is accepted upstream; a cached msgc prompt is billed at the cached price.
 */
import { randomUUID } from 'node:crypto';
import { chargeOf } from './support/billing-fixtures';
import { baseUrl, bearer, createTenantWithKey, http, msgcHeaders, type HttpResult } from './support/gateway';
import { usageRecord } from './support/oaic-fixtures';

// Response bodies are walked as JSON; typing each path would restate the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = Record<string, any>;

/** Micro-units per million tokens, as sandbox.yaml prices the models used here. */
const CLAUDE = { input: 3_000_000n, output: 15_000_000n, cachedInput: 300_000n, cacheWrite: 3_750_000n };
const GEMINI = { input: 300_000n, output: 2_500_000n };

const perMillion = (micros: bigint) => (micros + 999_999n) / 1_000_000n;
const requestIdOf = (result: HttpResult) => String(result.headers['x-request-id']);

describe('reasoning and prompt caching across families', () => {
  let key: string;
  const oaic = (json: unknown) => http('POST', `${baseUrl()}/oaic/v1/chat/completions`, { headers: bearer(key), json });
  const msgc = (json: unknown) => http('POST', `${baseUrl()}/msgc/v1/messages`, { headers: msgcHeaders(key), json });
  const genc = (model: string, json: unknown) => http('POST', `${baseUrl()}/genc/v1beta/models/${model}:generateContent`, { headers: bearer(key), json });

  beforeAll(async () => {
    key = (await createTenantWithKey({ label: 'reasoning' })).key;
  });

  it('oaic reasoning_effort to an Anthropic-protocol model: reasoning_content, reasoning_tokens, charged as output', async () => {
    const result = await oaic({
      model: 'sandbox-claude',
      max_tokens: 4096,
      reasoning_effort: 'low',
      messages: [{ role: 'user', content: 'Why is the sea salty?' }],
    });
    expect(result.status).toBe(200);
    const body = result.body as Json;
    expect(body.choices[0].message.reasoning_content).toContain('Why is the sea salty?');
    const usage = body.usage;
    expect(usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(usage.completion_tokens_details.reasoning_tokens);
    const requestId = requestIdOf(result);
    const record = await usageRecord(requestId);
    expect(record.completion_tokens).toBe(usage.completion_tokens);
    const { charged } = await chargeOf(requestId);
    expect(charged).toBe(perMillion(BigInt(usage.prompt_tokens) * CLAUDE.input + BigInt(usage.completion_tokens) * CLAUDE.output));
  });

  it('msgc thinking to a Gemini-protocol model: a thinking block, its tokens charged as output', async () => {
    const result = await msgc({
      model: 'sandbox-gemini',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
    });
    expect(result.status).toBe(200);
    const body = result.body as Json;
    expect(body.content[0]).toEqual(expect.objectContaining({ type: 'thinking' }));
    expect(body.content[0].thinking).toContain('Why is the sky blue?');
    expect(body.content[1]).toEqual({ type: 'text', text: 'You said: Why is the sky blue?' });
    const { charged } = await chargeOf(requestIdOf(result));
    expect(body.usage.output_tokens).toBeGreaterThan(6);
    expect(charged).toBe(perMillion(BigInt(body.usage.input_tokens) * GEMINI.input + BigInt(body.usage.output_tokens) * GEMINI.output));
  });

  it('genc thinkingConfig to an Anthropic-protocol model: thought parts and thoughtsTokenCount; the signed thought is accepted on the next turn', async () => {
    const contents: Json[] = [{ role: 'user', parts: [{ text: 'Name a prime.' }] }];
    const first = await genc('sandbox-claude', {
      contents,
      generationConfig: { maxOutputTokens: 4096, thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
    });
    expect(first.status).toBe(200);
    const body = first.body as Json;
    const parts = body.candidates[0].content.parts;
    expect(parts[0]).toEqual(expect.objectContaining({ thought: true, thoughtSignature: expect.any(String) }));
    expect(body.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
    expect(body.usageMetadata.totalTokenCount).toBe(
      body.usageMetadata.promptTokenCount + body.usageMetadata.candidatesTokenCount + body.usageMetadata.thoughtsTokenCount,
    );
    const next = [...contents, { role: 'model', parts }, { role: 'user', parts: [{ text: 'Another one?' }] }];
    const second = await genc('sandbox-claude', { contents: next, generationConfig: { maxOutputTokens: 4096, thinkingConfig: { thinkingBudget: 2048 } } });
    expect(second.status).toBe(200);
  });

  it('msgc thinking blocks keep their signature for the next turn; an altered one is refused upstream', async () => {
    const ask = { role: 'user', content: 'Think about tea.' };
    const first = await msgc({ model: 'sandbox-claude', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [ask] });
    expect(first.status).toBe(200);
    const content = (first.body as Json).content as Json[];
    expect(content[0]).toEqual({ type: 'thinking', thinking: expect.stringContaining('Think about tea.'), signature: expect.stringMatching(/^sig_/) });
    const turn = (assistant: Json[]) => ({
      model: 'sandbox-claude',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [ask, { role: 'assistant', content: assistant }, { role: 'user', content: 'And coffee?' }],
    });
    const accepted = await msgc(turn(content));
    expect(accepted.status).toBe(200);
    const altered = await msgc(turn([{ ...content[0], thinking: `${content[0]!.thinking} (edited)` }, content[1]!]));
    expect(altered.status).toBe(400);
    expect(altered.text).toContain('signature');
  });

  it('bills a cached msgc prompt at the cached price, and shows the cached count to oaic and genc for the same model', async () => {
    // A system prompt no other test uses, so the first request writes the cache and the next ones read it;
    // over 1,024 tokens, so a genc request (which has no breakpoint of its own) gets one implicitly.
    const system = [
      {
        type: 'text',
        text: `Reference manual ${randomUUID()}: ${'the gateway routes every family to every upstream. '.repeat(120)}`,
        cache_control: { type: 'ephemeral' },
      },
    ];
    const ask = (content: string) => ({ model: 'sandbox-claude', max_tokens: 64, system, messages: [{ role: 'user', content }] });
    const written = await msgc(ask('First question'));
    expect(written.status).toBe(200);
    expect((written.body as Json).usage.cache_creation_input_tokens).toBeGreaterThan(100);

    const read = await msgc(ask('Second question'));
    expect(read.status).toBe(200);
    const usage = (read.body as Json).usage;
    expect(usage.cache_read_input_tokens).toBe((written.body as Json).usage.cache_creation_input_tokens);
    const { charged } = await chargeOf(requestIdOf(read));
    const expected = perMillion(
      BigInt(usage.input_tokens) * CLAUDE.input + BigInt(usage.cache_read_input_tokens) * CLAUDE.cachedInput + BigInt(usage.output_tokens) * CLAUDE.output,
    );
    expect(charged).toBe(expected);
    const uncached = perMillion(BigInt(usage.input_tokens + usage.cache_read_input_tokens) * CLAUDE.input + BigInt(usage.output_tokens) * CLAUDE.output);
    expect(charged).toBeLessThan(uncached);

    const viaOaic = await oaic({
      model: 'sandbox-claude',
      max_tokens: 64,
      messages: [
        { role: 'system', content: system.map((block) => ({ type: 'text', text: block.text, cache_control: block.cache_control })) },
        { role: 'user', content: 'Third question' },
      ],
    });
    expect(viaOaic.status).toBe(200);
    expect((viaOaic.body as Json).usage.prompt_tokens_details.cached_tokens).toBe(usage.cache_read_input_tokens);

    const viaGenc = await genc('sandbox-claude', {
      systemInstruction: { parts: [{ text: system[0]!.text }] },
      contents: [{ role: 'user', parts: [{ text: 'Fourth question' }] }],
      generationConfig: { maxOutputTokens: 64 },
    });
    expect(viaGenc.status).toBe(200);
    expect((viaGenc.body as Json).usageMetadata.cachedContentTokenCount).toBe(usage.cache_read_input_tokens);
  });
});
