/** Chat completions through the running gateway with the official openai SDK: answers, streams, tools, images, errors, failover, usage. */
import OpenAI from 'openai';
import { randomUUID } from 'node:crypto';
import { baseUrl, createTenantWithKey, e2eEnv, openaiClient, uniqueSlug, type TenantWithKey } from './support/gateway';
import { PNG_BASE64, usageRecord } from './support/oaic-fixtures';

const question = (content: string) => [{ role: 'user' as const, content }];

describe('oaic chat completions', () => {
  let tenant: TenantWithKey;
  let client: OpenAI;
  let slowModel: string;

  beforeAll(async () => {
    const slug = uniqueSlug('chat');
    slowModel = `slow-${slug}`;
    const provider = `prov-${slug}`;
    tenant = await createTenantWithKey({
      label: 'chat',
      models: [slowModel],
      catalog: {
        providers: [{ id: provider, protocol: 'openai', baseUrl: `${e2eEnv().GW_E2E_SANDBOX_URL}/openai/v1`, apiKey: 'sk-sandbox-upstream' }],
        models: [
          {
            id: slowModel,
            displayName: 'Slow stream',
            capability: 'chat',
            public: false,
            provider,
            upstreamModel: 'sandbox-gpt@chunk=150',
            createdAt: '2025-01-01T00:00:00Z',
          },
        ],
      },
    });
    client = openaiClient(tenant.key);
  });

  it('answers without streaming, with usage', async () => {
    const completion = await client.chat.completions.create({ model: 'sandbox-gpt', messages: question('What is the gateway?') });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('sandbox-gpt');
    expect(completion.choices[0]!.message.role).toBe('assistant');
    expect(completion.choices[0]!.message.content).toContain('What is the gateway?');
    expect(completion.usage!.total_tokens).toBe(completion.usage!.prompt_tokens + completion.usage!.completion_tokens);
  });

  it('streams chunks whose joined deltas equal the non-stream answer, with usage in a final chunk', async () => {
    const messages = question('Tell me about streams, please.');
    const whole = await client.chat.completions.create({ model: 'sandbox-gpt', messages });
    const stream = await client.chat.completions.create({ model: 'sandbox-gpt', messages, stream: true });
    let joined = '';
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.model).toBe('sandbox-gpt');
      joined += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
      chunks++;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(joined).toBe(whole.choices[0]!.message.content);
    expect(usage).toEqual(whole.usage);
  });

  it('round-trips a tool call, including the tool message', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ];
    const first = await client.chat.completions.create({ model: 'sandbox-gpt', messages: question('Paris'), tools, tool_choice: 'auto' });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type).toBe('function');
    if (call.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });

    const streamed = await client.chat.completions.create({ model: 'sandbox-gpt', messages: question('Paris'), tools, stream: true });
    let args = '';
    for await (const chunk of streamed) args += chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '';
    expect(args).toBe(call.function.arguments);

    const second = await client.chat.completions.create({
      model: 'sandbox-gpt',
      tools,
      messages: [...question('Paris'), first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '21 degrees and sunny' }],
    });
    expect(second.choices[0]!.message.content).toContain('21 degrees and sunny');
  });

  it('takes an image as a data URL', async () => {
    const completion = await client.chat.completions.create({
      model: 'sandbox-gpt',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ],
        },
      ],
    });
    expect(completion.choices[0]!.message.content).toContain('What is in this picture?');
    expect(completion.choices[0]!.message.content).toContain('1 attachment');
  });

  it('carries a 10 MB data-URL image past the NATS payload limit', async () => {
    const big = `data:image/png;base64,${'A'.repeat(10 * 1024 * 1024)}`;
    const completion = await client.chat.completions.create({
      model: 'sandbox-gpt',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'A large picture' },
            { type: 'image_url', image_url: { url: big } },
          ],
        },
      ],
    });
    expect(completion.choices[0]!.message.content).toContain('A large picture');
  });

  it('serves the unprefixed /v1 alias', async () => {
    const alias = new OpenAI({ apiKey: tenant.key, baseURL: `${baseUrl()}/v1`, maxRetries: 0 });
    const completion = await alias.chat.completions.create({ model: 'sandbox-gpt', messages: question('alias') });
    expect(completion.choices[0]!.message.content).toContain('alias');
  });

  describe('bad input', () => {
    const badRequest = async (body: Record<string, unknown>, param: string, message: RegExp) => {
      const error = await client.chat.completions.create(body as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const apiError = error as InstanceType<typeof OpenAI.BadRequestError>;
      expect(apiError.status).toBe(400);
      expect(apiError.param).toBe(param);
      expect(apiError.message).toMatch(message);
      expect(apiError.message).toContain(param);
    };
    const image = (url: string) => ({ model: 'sandbox-gpt', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] });

    it('missing model', () => badRequest({ messages: question('hi') }, 'model', /Missing required parameter/));
    it('missing messages', () => badRequest({ model: 'sandbox-gpt' }, 'messages', /Missing required parameter/));
    it('messages of the wrong type', () => badRequest({ model: 'sandbox-gpt', messages: 'hi' }, 'messages', /Invalid type/));
    it('temperature of the wrong type', () =>
      badRequest({ model: 'sandbox-gpt', messages: question('hi'), temperature: 'warm' }, 'temperature', /Invalid type/));
    it('a bare base64 image', () => badRequest(image(PNG_BASE64), 'messages[0].content[0].image_url.url', /bare base64/));
    it('a local file path image', () => badRequest(image('/home/me/cat.png'), 'messages[0].content[0].image_url.url', /local file path/));
    it('a video block', () =>
      badRequest(
        { model: 'sandbox-gpt', messages: [{ role: 'user', content: [{ type: 'video_url', video_url: { url: 'https://example.com/v.mp4' } }] }] },
        'messages[0].content[0].type',
        /video/,
      ));

    it('an unknown model is a 404', async () => {
      const error = await client.chat.completions.create({ model: 'no-such-model', messages: question('hi') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    });

    it('another tenant’s private model is a 404 too', async () => {
      const error = await client.chat.completions.create({ model: 'sandbox-gpt-private', messages: question('hi') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    });
  });

  it('answers in the oaic dialect, not a hang, when every channel fails (unary and stream)', async () => {
    const started = Date.now();
    const unary = await client.chat.completions.create({ model: 'sandbox-gpt-broken', messages: question('hi') }).catch((e: unknown) => e);
    expect(unary).toBeInstanceOf(OpenAI.InternalServerError);
    expect((unary as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(500);
    expect((unary as InstanceType<typeof OpenAI.APIError>).type).toBe('api_error');
    expect((unary as InstanceType<typeof OpenAI.APIError>).message).not.toContain('sk-sandbox-upstream');
    const stream = await client.chat.completions.create({ model: 'sandbox-gpt-broken', messages: question('hi'), stream: true }).catch((e: unknown) => e);
    expect(stream).toBeInstanceOf(OpenAI.APIError);
    expect((stream as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(500);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('fails over to the second channel and records the channel that served it', async () => {
    const clientRequestId = randomUUID();
    const { data: completion, response } = await client.chat.completions
      .create({ model: 'sandbox-gpt-failover', messages: question('failover please') }, { headers: { 'x-request-id': clientRequestId } })
      .withResponse();
    expect(completion.choices[0]!.message.content).toContain('failover please');
    const requestId = response.headers.get('x-request-id')!;
    expect(requestId).not.toBe(clientRequestId);
    expect(response.headers.get('x-client-request-id')).toBe(clientRequestId);
    const usage = await usageRecord(requestId);
    expect(usage.client_request_id).toBe(clientRequestId);
    expect(usage).toMatchObject({ model_id: 'sandbox-gpt-failover', upstream_model: 'sandbox-gpt', channel_priority: 1, outcome: 'ok', status: 200 });
    expect(usage.prompt_tokens).toBe(completion.usage!.prompt_tokens);
    expect(usage.completion_tokens).toBe(completion.usage!.completion_tokens);
  });

  it('records usage of a stream from the upstream’s final count', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'sandbox-gpt', messages: question('count my stream'), stream: true })
      .withResponse();
    const requestId = response.headers.get('x-request-id')!;
    let final: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) final = chunk.usage ?? final;
    const usage = await usageRecord(requestId);
    expect(usage).toMatchObject({ outcome: 'ok', prompt_tokens: final!.prompt_tokens, completion_tokens: final!.completion_tokens });
  });

  it('a client that disconnects cancels the stream; usage counts what was delivered', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: slowModel, messages: question('one two three four five six seven eight nine ten eleven twelve'), stream: true })
      .withResponse();
    const requestId = response.headers.get('x-request-id')!;
    let delivered = 0;
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) delivered++;
      if (delivered === 3) {
        stream.controller.abort();
        break;
      }
    }
    const usage = await usageRecord(requestId);
    expect(usage.outcome).toBe('cancelled');
    expect(usage.completion_tokens).toBeGreaterThanOrEqual(3);
    expect(usage.completion_tokens).toBeLessThan(14);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.latency_ms).toBeLessThan(1500);
  });
});
