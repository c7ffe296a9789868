/**
 * The Vercel AI SDK as its users configure it (base URL, key and headers only), through each of its
 * providers — @ai-sdk/openai's chat and (default) Responses models, @ai-sdk/anthropic, @ai-sdk/google —
 * against a model on each upstream protocol: text, streams, a multi-step tool loop, structured output.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, Output, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { getGlobalDispatcher } from 'undici';
import { z } from 'zod';
import { baseUrl, createTenantWithKey } from './support/gateway';

/** One model per upstream protocol. */
const MODELS = { openai: 'sandbox-gpt', anthropic: 'sandbox-claude', gemini: 'sandbox-gemini' } as const;

type Client = 'openai.chat' | 'openai.responses' | 'anthropic' | 'google';
const CLIENTS: Client[] = ['openai.chat', 'openai.responses', 'anthropic', 'google'];

function modelFor(client: Client, key: string, model: string): LanguageModel {
  const base = baseUrl();
  if (client === 'openai.chat') return createOpenAI({ baseURL: `${base}/oaic/v1`, apiKey: key }).chat(model);
  if (client === 'openai.responses') return createOpenAI({ baseURL: `${base}/oaic/v1`, apiKey: key })(model);
  if (client === 'anthropic') return createAnthropic({ baseURL: `${base}/msgc/v1`, apiKey: key, headers: { 'msgc-version': '2023-06-01' } })(model);
  return createGoogleGenerativeAI({ baseURL: `${base}/genc/v1beta`, apiKey: key, headers: { authorization: `Bearer ${key}` } })(model);
}

const CASES = CLIENTS.flatMap((client) => Object.entries(MODELS).map(([protocol, model]) => [client, protocol, model] as const));

const weather = tool({
  description: 'The weather in a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 18 }),
});

const Person = z.object({ name: z.string(), age: z.number() });

describe('Vercel AI SDK', () => {
  let key: string;

  beforeAll(async () => {
    // The SDK's fetch looks up Node's global dispatcher, which jest's realm has not registered yet.
    getGlobalDispatcher();
    // The SDK warns that it does not know the sandbox's model names; the specs check what it does with them.
    (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
    key = (await createTenantWithKey({ label: 'ai-sdk' })).key;
  });

  describe.each(CASES)('%s → %s upstream (%s)', (client, _protocol, modelId) => {
    const model = () => modelFor(client, key, modelId);

    it('generateText answers with text and usage', async () => {
      const result = await generateText({ model: model(), prompt: 'Hello from the SDK' });
      expect(result.text).toContain('Hello from the SDK');
      expect(result.finishReason).toBe('stop');
      expect(result.usage.inputTokens).toBeGreaterThan(0);
      expect(result.usage.outputTokens).toBeGreaterThan(0);
    });

    it('streamText streams the same text', async () => {
      const result = streamText({ model: model(), prompt: 'Stream this answer' });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      expect(text).toContain('Stream this answer');
      expect((await result.usage).outputTokens).toBeGreaterThan(0);
    });

    it('runs a multi-step tool loop until the model answers', async () => {
      const result = await generateText({ model: model(), tools: { weather }, stopWhen: stepCountIs(3), prompt: 'Paris' });
      expect(result.steps.length).toBe(2);
      expect(result.steps[0]!.toolCalls[0]).toEqual(expect.objectContaining({ toolName: 'weather', input: { city: 'Paris' } }));
      expect(result.steps[0]!.toolResults[0]!.output).toEqual({ city: 'Paris', celsius: 18 });
      expect(result.text).toContain('18');
    });

    it('returns structured output matching a two-field schema', async () => {
      const result = await generateText({ model: model(), output: Output.object({ schema: Person }), prompt: 'Ada Lovelace' });
      expect(Person.parse(result.output)).toEqual({ name: 'Ada Lovelace', age: 0 });
    });
  });
});
