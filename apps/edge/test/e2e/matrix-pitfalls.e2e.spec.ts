/**
 * Regression specs for where translating gateways lose users: streamed tool-call arguments, system prompts
 * crossing families, stop reasons, usage at the end of every translated stream, and fields a target
 * protocol cannot express.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { getGlobalDispatcher } from 'undici';
import { ask, familyClients, type ChatFamily, type FamilyClients } from './support/chat-matrix';
import { baseUrl, bearer, createTenantWithKey, http, msgcHeaders, type TenantWithKey } from './support/gateway';

interface SseEvent {
  event: string | undefined;
  data: string;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data };
    });
}

// Assertions walk arbitrary JSON events; typing every path would only restate the expectations.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = Record<string, any>;
const json = (event: SseEvent): Json => JSON.parse(event.data) as Json;

const TRANSLATED: Array<[ChatFamily, string]> = [
  ['oaic', 'sandbox-claude'],
  ['oaic', 'sandbox-gemini'],
  ['msgc', 'sandbox-gpt'],
  ['msgc', 'sandbox-gemini'],
  ['genc', 'sandbox-gpt'],
  ['genc', 'sandbox-claude'],
];

describe('translation pitfalls', () => {
  let tenant: TenantWithKey;
  let clients: FamilyClients;

  beforeAll(async () => {
    getGlobalDispatcher();
    tenant = await createTenantWithKey({ label: 'pitfalls' });
    clients = familyClients(tenant.key);
  });

  /** One streamed request over plain HTTP, so every SSE frame the gateway wrote can be inspected. */
  async function rawStream(family: ChatFamily, model: string, user: string, extra: Json = {}): Promise<SseEvent[]> {
    const response =
      family === 'oaic'
        ? await http('POST', `${baseUrl()}/oaic/v1/chat/completions`, {
            headers: bearer(tenant.key),
            json: { model, stream: true, messages: [{ role: 'user', content: user }], ...extra },
          })
        : family === 'msgc'
          ? await http('POST', `${baseUrl()}/msgc/v1/messages`, {
              headers: msgcHeaders(tenant.key),
              json: { model, stream: true, max_tokens: 200, messages: [{ role: 'user', content: user }], ...extra },
            })
          : await http('POST', `${baseUrl()}/genc/v1beta/models/${model}:streamGenerateContent?alt=sse`, {
              headers: bearer(tenant.key),
              json: { contents: [{ role: 'user', parts: [{ text: user }] }], ...extra },
            });
    expect(response.status).toBe(200);
    expect(String(response.headers['content-type'])).toContain('text/event-stream');
    return parseSse(response.text);
  }

  describe.each(TRANSLATED)('%s → %s', (family, model) => {
    it('ends the stream with usage', async () => {
      const events = await rawStream(family, model, 'Usage at the end, please.');
      if (family === 'oaic') {
        expect(events[events.length - 1]!.data).toBe('[DONE]');
        const usage = json(events[events.length - 2]!).usage as Json;
        expect(usage.prompt_tokens).toBeGreaterThan(0);
        expect(usage.completion_tokens).toBeGreaterThan(0);
        expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
      } else if (family === 'msgc') {
        expect(events.map((e) => e.event)).toContain('ping');
        expect(events.slice(-2).map((e) => e.event)).toEqual(['message_delta', 'message_stop']);
        const delta = json(events[events.length - 2]!);
        expect(delta.delta.stop_reason).toBe('end_turn');
        expect(delta.usage.output_tokens).toBeGreaterThan(0);
        expect(json(events[0]!).message.usage.input_tokens).toBeGreaterThanOrEqual(0);
      } else {
        const last = json(events[events.length - 1]!);
        expect(last.candidates[0].finishReason).toBe('STOP');
        expect(last.usageMetadata.candidatesTokenCount).toBeGreaterThan(0);
        expect(last.usageMetadata.promptTokenCount).toBeGreaterThan(0);
      }
    });

    it('streams a tool call whose arguments arrive whole', async () => {
      const tool = { name: 'get_weather', description: 'Weather', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
      const extra: Json =
        family === 'oaic'
          ? { tools: [{ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.schema } }] }
          : family === 'msgc'
            ? { tools: [{ name: tool.name, description: tool.description, input_schema: tool.schema }] }
            : { tools: [{ functionDeclarations: [{ name: tool.name, description: tool.description, parameters: tool.schema }] }] };
      const events = await rawStream(family, model, 'Lisbon', extra);
      let args = '';
      if (family === 'oaic') {
        for (const event of events.slice(0, -1)) args += json(event).choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '';
        expect(events.some((e) => e.data !== '[DONE]' && json(e).choices[0]?.finish_reason === 'tool_calls')).toBe(true);
      } else if (family === 'msgc') {
        for (const event of events)
          if (event.event === 'content_block_delta' && json(event).delta.type === 'input_json_delta') args += json(event).delta.partial_json;
        expect(json(events.find((e) => e.event === 'content_block_start')!).content_block).toMatchObject({ type: 'tool_use', name: 'get_weather' });
      } else {
        const calls = events.flatMap((e) => (json(e).candidates[0].content.parts as Json[]).filter((p) => p.functionCall));
        expect(calls).toHaveLength(1);
        args = JSON.stringify(calls[0]!.functionCall.args);
      }
      expect(JSON.parse(args)).toEqual({ city: 'Lisbon' });
    });
  });

  it('an oaic system message sent to an Anthropic upstream becomes its system prompt', async () => {
    const system = 'Answer in one short line.';
    const completion = await clients.oaic.chat.completions.create({
      model: 'sandbox-claude',
      messages: [
        { role: 'user', content: 'First question' },
        { role: 'system', content: system },
        { role: 'user', content: 'Second question' },
      ],
    });
    expect(completion.choices[0]!.message.content).toContain('Second question');
    const counted = await clients.msgc.messages.countTokens({
      model: 'sandbox-claude',
      system,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'First question' },
            { type: 'text', text: 'Second question' },
          ],
        },
      ],
    });
    expect(completion.usage!.prompt_tokens).toBe(counted.input_tokens);
  });

  it('msgc system blocks sent to an OpenAI upstream become one system message', async () => {
    const blocks = ['You are terse.', 'Never apologize.'];
    const translated = await clients.msgc.messages.create({
      model: 'sandbox-gpt',
      max_tokens: 100,
      system: blocks.map((text) => ({ type: 'text' as const, text })),
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    const direct = await clients.oaic.chat.completions.create({
      model: 'sandbox-gpt',
      messages: [
        { role: 'system', content: blocks.join('\n\n') },
        { role: 'user', content: 'Hello there' },
      ],
    });
    const withoutSystem = await clients.oaic.chat.completions.create({ model: 'sandbox-gpt', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(translated.usage.input_tokens).toBe(direct.usage!.prompt_tokens);
    expect(translated.usage.input_tokens).toBeGreaterThan(withoutSystem.usage!.prompt_tokens);
  });

  describe('stop reasons map both ways', () => {
    const cut = { user: 'one two three four five six seven eight nine ten', maxTokens: 3 };
    it.each([
      ['msgc', 'sandbox-gpt', 'max_tokens'],
      ['msgc', 'sandbox-gemini', 'max_tokens'],
      ['oaic', 'sandbox-claude', 'length'],
      ['oaic', 'sandbox-gemini', 'length'],
      ['genc', 'sandbox-claude', 'MAX_TOKENS'],
      ['genc', 'sandbox-gpt', 'MAX_TOKENS'],
    ] as const)('%s → %s: a cut answer is %s, streamed or not', async (family, model, reason) => {
      for (const stream of [false, true]) {
        const answer = await ask(clients, family, model, { ...cut, stream });
        expect(answer.stop).toBe(reason);
        expect(answer.usage!.output).toBe(3);
      }
    });

    it.each([
      ['oaic', 'sandbox-claude', 'tool_calls'],
      ['oaic', 'sandbox-gemini', 'tool_calls'],
      ['msgc', 'sandbox-gpt', 'tool_use'],
      ['msgc', 'sandbox-gemini', 'tool_use'],
    ] as const)('%s → %s: a tool call is %s', async (family, model, reason) => {
      const answer = await ask(clients, family, model, { user: 'Oslo', tools: true, stream: false });
      expect(answer.stop).toBe(reason);
    });

    it('a stop sequence hit upstream is a plain stop in oaic', async () => {
      const completion = await clients.oaic.chat.completions.create({
        model: 'sandbox-claude',
        stop: ['HALT'],
        messages: [{ role: 'user', content: 'go on HALT and more' }],
      });
      expect(completion.choices[0]!.finish_reason).toBe('stop');
      expect(completion.choices[0]!.message.content).not.toContain('HALT');
    });
  });

  describe('a field the target protocol cannot express is a 400 naming it', () => {
    it('msgc top_k to an OpenAI upstream', async () => {
      // top_k is in the msgc contract but not in this SDK version's types: it rides as an extra field.
      const topK = { top_k: 3 };
      const error = await clients.msgc.messages
        .create({ model: 'sandbox-gpt', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...topK })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as Error).message).toContain('top_k');
    });

    it('oaic presence_penalty to an Anthropic upstream', async () => {
      const error = await clients.oaic.chat.completions
        .create({ model: 'sandbox-claude', presence_penalty: 0.5, messages: [{ role: 'user', content: 'hi' }] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('presence_penalty');
    });

    it('genc image output from a model that cannot draw', async () => {
      const response = await http('POST', `${baseUrl()}/genc/v1beta/models/sandbox-claude:generateContent`, {
        headers: bearer(tenant.key),
        json: { contents: [{ role: 'user', parts: [{ text: 'draw' }] }], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('responseModalities') } });
    });
  });
});
