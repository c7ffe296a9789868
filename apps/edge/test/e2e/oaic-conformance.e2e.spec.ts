/**
 * Every oaic object the gateway answers validates against OpenAI's own OpenAPI component schemas: on a model an
 * OpenAI-protocol upstream serves (relayed) and, where the route crosses protocols, on models an Anthropic- or
 * Gemini-protocol upstream serves (built by the chat bridges). Raw HTTP, so nothing an SDK adds or drops hides a gap.
 * OpenAI's document is the judge; each answer must then also validate against the response schema the gateway's
 * own document (/docs/openapi.json) gives that operation, so the published reference describes what is served.
 */
import { baseUrl, bearer, createTenantWithKey, http, type TenantWithKey } from './support/gateway';
import { wavTone } from './support/oaic-fixtures';
import { loadGatewaySchemas, type DocumentedAnswer, type GatewaySchemas } from './support/gateway-openapi';
import { loadOpenAiSchemas, type JsonNode, type OpenAiSchemas } from './support/openai-schema';

const DIRECT = 'sandbox-gpt';
const CROSSED = ['sandbox-claude', 'sandbox-gemini'] as const;
const CHAT_MODELS = [DIRECT, ...CROSSED];

/** An operation of the gateway's document, by its path under /oaic/v1. */
const json = (method: DocumentedAnswer['method'], tail: string): DocumentedAnswer => ({ method, path: `/oaic/v1${tail}` });
const eventStream = (tail: string): DocumentedAnswer => ({ method: 'POST', path: `/oaic/v1${tail}`, type: 'text/event-stream' });

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather by city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const WEATHER_RESPONSES_TOOL = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather by city',
  parameters: WEATHER_TOOL.function.parameters,
  strict: false,
};

describe('oaic objects conform to the OpenAI OpenAPI schemas', () => {
  let schemas: OpenAiSchemas;
  let ours: GatewaySchemas;
  let tenant: TenantWithKey;

  /**
   * The document has no schema for a completions stream chunk: OpenAI streams CreateCompletionResponse objects
   * whose `finish_reason` is null until the last choice chunk and whose `usage` is null on every chunk but the
   * usage one (stream_options.include_usage). Exactly those two fields are made nullable; all else is the document's.
   */
  let completionChunk: JsonNode;

  beforeAll(async () => {
    schemas = loadOpenAiSchemas();
    ours = await loadGatewaySchemas(baseUrl());
    const whole = schemas.component('CreateCompletionResponse') as {
      properties: Record<string, JsonNode> & { choices: { items: { properties: Record<string, JsonNode> } } };
    };
    const choice = whole.properties.choices.items.properties;
    choice['finish_reason'] = { anyOf: [choice['finish_reason']!, { type: 'null' }] };
    whole.properties['usage'] = { anyOf: [whole.properties['usage']!, { type: 'null' }] };
    completionChunk = whole as unknown as JsonNode;
    tenant = await createTenantWithKey({ label: 'conformance' });
  });

  function fail(label: string, judge: string, problems: string[], value: unknown): never {
    throw new Error(`${label} does not conform to ${judge}:\n  ${problems.join('\n  ')}\n${JSON.stringify(value, null, 1).slice(0, 4000)}`);
  }

  /** The gateway's document must describe what OpenAI's accepted: the same value against the operation's documented answer. */
  function expectDocumented(answer: DocumentedAnswer, value: unknown, label: string): void {
    const problems = ours.problems(answer, value);
    if (problems.length)
      fail(label, `the gateway's ${answer.method} ${answer.path} (${answer.status ?? '200'}, ${answer.type ?? 'application/json'})`, problems, value);
  }

  /** Asserts `value` conforms to OpenAI's named schema, then to the gateway's documented answer, printing every problem (and the value) when not. */
  function expectConforms(schema: string, value: unknown, label: string, answer: DocumentedAnswer): void {
    const problems = schemas.problems(schema, value);
    if (problems.length) fail(label, schema, problems, value);
    expectDocumented(answer, value, label);
  }

  async function post(path: string, json: unknown): Promise<unknown> {
    const result = await http('POST', `${baseUrl()}/oaic/v1${path}`, { headers: bearer(tenant.key), json });
    if (result.status !== 200) throw new Error(`POST ${path} answered ${result.status}: ${result.text}`);
    return result.body;
  }

  /** The JSON payloads of an SSE stream, in order, without the closing [DONE]. */
  async function stream(path: string, json: unknown): Promise<{ event: string | undefined; data: unknown }[]> {
    const response = await fetch(`${baseUrl()}/oaic/v1${path}`, {
      method: 'POST',
      headers: { ...bearer(tenant.key), 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`POST ${path} (stream) answered ${response.status}: ${text}`);
    const events: { event: string | undefined; data: unknown }[] = [];
    for (const block of text.split(/\r?\n\r?\n/)) {
      const lines = block.split(/\r?\n/);
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (!data || data === '[DONE]') continue;
      events.push({
        event: lines
          .find((l) => l.startsWith('event:'))
          ?.slice(6)
          .trim(),
        data: JSON.parse(data) as unknown,
      });
    }
    return events;
  }

  it('the validator refuses what OpenAI would not send', () => {
    expect(schemas.problems('CreateEmbeddingResponse', { object: 'list', data: [], model: 'x' })).not.toEqual([]);
    expect(schemas.problems('OutputTextContent', { type: 'output_text', text: 'x', annotations: [] }).join('\n')).toContain('logprobs');
    expect(schemas.problems('ResponseStreamEvent', { type: 'response.output_text.delta', delta: 'x' }).join('\n')).toContain('ResponseTextDeltaEvent');
    expect(
      schemas.problems('CreateEmbeddingResponse', {
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.5] }],
        model: 'x',
        usage: { prompt_tokens: 1, total_tokens: 1 },
      }),
    ).toEqual([]);
    const embeddings = {
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.5] }],
      model: 'x',
      usage: { prompt_tokens: 1, total_tokens: 1 },
    };
    expect(ours.problems(json('POST', '/embeddings'), embeddings)).toEqual([]);
    expect(ours.problems(json('POST', '/embeddings'), { ...embeddings, data: [{ index: 0, embedding: [0.5] }] }).join('\n')).toContain('object');
    expect(ours.problems(eventStream('/chat/completions'), { object: 'chat.completion.chunk', choices: [] })).not.toEqual([]);
    expect(ours.problems(eventStream('/responses'), { type: 'response.output_text.delta', sequence_number: 1, delta: 'x' })).not.toEqual([]);
    expect(ours.problems({ ...json('POST', '/chat/completions'), status: 'default' }, { error: { message: 'm', type: 't', param: null, code: null } })).toEqual(
      [],
    );
  });

  describe.each(CHAT_MODELS)('chat completions on %s', (model) => {
    it('whole, with text and with a tool call', async () => {
      expectConforms(
        'CreateChatCompletionResponse',
        await post('/chat/completions', { model, messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 50 }),
        'a chat completion',
        json('POST', '/chat/completions'),
      );
      const cut = await post('/chat/completions', { model, messages: [{ role: 'user', content: 'A long question cut short by the cap' }], max_tokens: 2 });
      expect(cut).toMatchObject({ choices: [{ finish_reason: 'length' }] });
      expectConforms('CreateChatCompletionResponse', cut, 'a chat completion cut short', json('POST', '/chat/completions'));
      const called = await post('/chat/completions', {
        model,
        messages: [{ role: 'user', content: 'Weather in Oslo?' }],
        tools: [WEATHER_TOOL],
        max_tokens: 50,
      });
      expect(JSON.stringify(called)).toContain('get_weather');
      expectConforms('CreateChatCompletionResponse', called, 'a chat completion with a tool call', json('POST', '/chat/completions'));
    });

    it('every stream chunk, with usage and with a tool call', async () => {
      for (const body of [
        { model, messages: [{ role: 'user', content: 'Stream hello' }], max_tokens: 50, stream: true, stream_options: { include_usage: true } },
        { model, messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools: [WEATHER_TOOL], max_tokens: 50, stream: true },
      ]) {
        const chunks = await stream('/chat/completions', body);
        expect(chunks.length).toBeGreaterThan(1);
        chunks.forEach(({ data }, i) => expectConforms('CreateChatCompletionStreamResponse', data, `chunk ${i}`, eventStream('/chat/completions')));
      }
    });
  });

  describe.each(CHAT_MODELS)('completions on %s', (model) => {
    it('whole and every stream chunk', async () => {
      expectConforms(
        'CreateCompletionResponse',
        await post('/completions', { model, prompt: 'Complete me', max_tokens: 50 }),
        'a completion',
        json('POST', '/completions'),
      );
      const chunks = await stream('/completions', { model, prompt: 'Complete me', max_tokens: 50, stream: true });
      expect(chunks.length).toBeGreaterThan(1);
      chunks.forEach(({ data }, i) => {
        const problems = schemas.problemsOf(completionChunk, data);
        if (problems.length) throw new Error(`completion chunk ${i} does not conform:\n  ${problems.join('\n  ')}\n${JSON.stringify(data)}`);
        expectDocumented(eventStream('/completions'), data, `completion chunk ${i}`);
      });
      const finishes = chunks.flatMap(({ data }) => (data as { choices: { finish_reason: string | null }[] }).choices.map((c) => c.finish_reason));
      expect(finishes.filter((f) => f !== null)).toEqual(['stop']);
    });
  });

  describe.each(CHAT_MODELS)('responses on %s', (model) => {
    it('whole (created and retrieved), with text and with a function call', async () => {
      const created = await post('/responses', { model, input: 'Remember this', max_output_tokens: 50 });
      expectConforms('Response', created, 'a response', json('POST', '/responses'));
      const id = (created as { id: string }).id;
      const retrieved = await http('GET', `${baseUrl()}/oaic/v1/responses/${id}`, { headers: bearer(tenant.key) });
      expect(retrieved.status).toBe(200);
      expectConforms('Response', retrieved.body, 'a retrieved response', json('GET', '/responses/{response_id}'));
      const cut = await post('/responses', { model, input: 'A long question cut short by the cap', max_output_tokens: 2 });
      expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
      expectConforms('Response', cut, 'an incomplete response', json('POST', '/responses'));
      const cutStored = await http('GET', `${baseUrl()}/oaic/v1/responses/${(cut as { id: string }).id}`, { headers: bearer(tenant.key) });
      expect(cutStored.status).toBe(200);
      expectConforms('Response', cutStored.body, 'an incomplete response, retrieved', json('GET', '/responses/{response_id}'));
      const called = await post('/responses', { model, input: 'Weather in Oslo?', tools: [WEATHER_RESPONSES_TOOL], max_output_tokens: 50 });
      expect(JSON.stringify(called)).toContain('function_call');
      expectConforms('Response', called, 'a response with a function call', json('POST', '/responses'));
    });

    it('every stream event, with text and with a function call', async () => {
      for (const body of [
        { model, input: 'Stream a response', max_output_tokens: 50, stream: true },
        { model, input: 'Stream a response cut short by its cap', max_output_tokens: 2, stream: true },
        { model, input: 'Weather in Oslo?', tools: [WEATHER_RESPONSES_TOOL], max_output_tokens: 50, stream: true },
      ]) {
        const events = await stream('/responses', body);
        expect(events.map((e) => (e.data as { type: string }).type)).toContain(body.max_output_tokens === 2 ? 'response.incomplete' : 'response.completed');
        events.forEach(({ event, data }, i) => {
          expect(event).toBe((data as { type: string }).type);
          expectConforms('ResponseStreamEvent', data, `event ${i} (${event})`, eventStream('/responses'));
        });
        const completed = events.at(-1)!.data as { response: { id: string } };
        const stored = await http('GET', `${baseUrl()}/oaic/v1/responses/${completed.response.id}`, { headers: bearer(tenant.key) });
        expect(stored.status).toBe(200);
        expectConforms('Response', stored.body, 'a streamed response, retrieved', json('GET', '/responses/{response_id}'));
      }
    });
  });

  it('embeddings, with one input and several', async () => {
    expectConforms(
      'CreateEmbeddingResponse',
      await post('/embeddings', { model: 'sandbox-embedding', input: 'one text' }),
      'an embedding list',
      json('POST', '/embeddings'),
    );
    expectConforms(
      'CreateEmbeddingResponse',
      await post('/embeddings', { model: 'sandbox-embedding', input: ['first', 'second'], dimensions: 8 }),
      'an embedding list',
      json('POST', '/embeddings'),
    );
  });

  it('moderations, of one text and of several', async () => {
    expectConforms(
      'CreateModerationResponse',
      await post('/moderations', { model: 'sandbox-moderation', input: 'a friendly sentence' }),
      'a moderation',
      json('POST', '/moderations'),
    );
    expectConforms(
      'CreateModerationResponse',
      await post('/moderations', { model: 'sandbox-moderation', input: ['one', 'two'] }),
      'a moderation of two inputs',
      json('POST', '/moderations'),
    );
  });

  it('images, as base64', async () => {
    expectConforms(
      'ImagesResponse',
      await post('/images/generations', { model: 'sandbox-image', prompt: 'a lighthouse', size: '256x256', response_format: 'b64_json' }),
      'an image answer',
      json('POST', '/images/generations'),
    );
  });

  it('transcriptions and translations of a WAV upload, as json and verbose_json', async () => {
    for (const [route, format, schema] of [
      ['/audio/transcriptions', 'json', 'CreateTranscriptionResponseJson'],
      ['/audio/transcriptions', 'verbose_json', 'CreateTranscriptionResponseVerboseJson'],
      ['/audio/translations', 'json', 'CreateTranslationResponseJson'],
      ['/audio/translations', 'verbose_json', 'CreateTranslationResponseVerboseJson'],
    ] as const) {
      const form = new FormData();
      form.set('model', 'sandbox-whisper');
      form.set('response_format', format);
      form.set('file', new Blob([wavTone()], { type: 'audio/wav' }), 'tone.wav');
      const response = await fetch(`${baseUrl()}/oaic/v1${route}`, { method: 'POST', headers: bearer(tenant.key), body: form });
      expect(response.status).toBe(200);
      expectConforms(schema, await response.json(), `${route} as ${format}`, json('POST', route));
    }
  });

  it('the model list and an error body', async () => {
    const list = await http('GET', `${baseUrl()}/oaic/v1/models`, { headers: bearer(tenant.key) });
    expect(list.status).toBe(200);
    expectConforms('ListModelsResponse', list.body, 'the model list', json('GET', '/models'));
    expect((list.body as { data: { id: string }[] }).data.map((m) => m.id)).toContain(DIRECT);
    const refused = await http('POST', `${baseUrl()}/oaic/v1/chat/completions`, {
      headers: bearer(tenant.key),
      json: { model: DIRECT, messages: 'not a list' },
    });
    expect(refused.status).toBe(400);
    expectConforms('ErrorResponse', refused.body, 'an error body', { ...json('POST', '/chat/completions'), status: 'default' });
  });
});
