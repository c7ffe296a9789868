/** The msgc family through the running gateway with the official Anthropic SDK: messages, streams, token counts, tools, images, errors. */
import Anthropic from '@anthropic-ai/sdk';
import { anthropicClient, baseUrl, bearer, createTenantWithKey, http, msgcHeaders, type TenantWithKey } from './support/gateway';
import { PNG_BASE64, usageRecord } from './support/oaic-fixtures';

const MODEL = 'sandbox-claude';
const ask = (text: string): Anthropic.MessageParam[] => [{ role: 'user', content: text }];
const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function textOf(message: Anthropic.Message): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('msgc messages', () => {
  let tenant: TenantWithKey;
  let client: Anthropic;

  beforeAll(async () => {
    tenant = await createTenantWithKey({ label: 'msgc' });
    client = anthropicClient(tenant.key);
  });

  it('creates a message with usage and the public model id', async () => {
    const message = await client.messages.create({ model: MODEL, max_tokens: 200, messages: ask('What is the gateway?') });
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe(MODEL);
    expect(textOf(message)).toContain('What is the gateway?');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it('streams the full event sequence; the final message equals the unary answer', async () => {
    const messages = ask('Tell me about streams, please.');
    const whole = await client.messages.create({ model: MODEL, max_tokens: 200, messages });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 200, messages });
    const kinds: string[] = [];
    stream.on('streamEvent', (event) => kinds.push(event.type));
    const final = await stream.finalMessage();
    expect(textOf(final)).toBe(textOf(whole));
    expect(final.model).toBe(MODEL);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(whole.usage.output_tokens);
    expect(kinds[0]).toBe('message_start');
    expect(kinds).toEqual(expect.arrayContaining(['content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta']));
    expect(kinds[kinds.length - 1]).toBe('message_stop');
  });

  it('counts tokens without generating, matching the input usage of a real call', async () => {
    const request = { model: MODEL, system: 'Be brief.', messages: ask('How many tokens is this sentence?') };
    const counted = await client.messages.countTokens(request);
    const message = await client.messages.create({ ...request, max_tokens: 50 });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(counted.input_tokens).toBe(message.usage.input_tokens);
  });

  it('round-trips a tool call: tool_use, then a tool_result answered in text', async () => {
    const first = await client.messages.create({ model: MODEL, max_tokens: 200, messages: ask('Paris'), tools: [weatherTool] });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')!;
    expect(use.name).toBe('get_weather');
    expect(use.input).toEqual({ city: 'Paris' });
    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 200,
      tools: [weatherTool],
      messages: [
        ...ask('Paris'),
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21 degrees and sunny' }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(textOf(second)).toContain('21 degrees and sunny');
  });

  it('streams a tool call whose input arrives whole', async () => {
    const final = await client.messages.stream({ model: MODEL, max_tokens: 200, messages: ask('Berlin'), tools: [weatherTool] }).finalMessage();
    const use = final.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')!;
    expect(use.input).toEqual({ city: 'Berlin' });
    expect(final.stop_reason).toBe('tool_use');
  });

  it('takes system blocks, stop_sequences, top_k and a base64 image', async () => {
    const message = await client.messages.create({
      model: MODEL,
      max_tokens: 200,
      system: [{ type: 'text', text: 'You are terse.' }],
      // top_k is in the msgc contract but not in this SDK version's types: it rides as an extra field.
      ...{ top_k: 5 },
      stop_sequences: ['STOPHERE'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look at this STOPHERE please' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          ],
        },
      ],
    });
    expect(message.stop_reason).toBe('stop_sequence');
    expect(message.stop_sequence).toBe('STOPHERE');
    expect(textOf(message)).toContain('Look at this');
    expect(textOf(message)).not.toContain('STOPHERE');
  });

  it('takes an image by public URL on every upstream protocol, and refuses an internal one naming source.url', async () => {
    const image = (url: string): Anthropic.MessageParam[] => [
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'url', url } },
          { type: 'text', text: 'Describe the picture' },
        ],
      },
    ];
    for (const model of [MODEL, 'sandbox-gpt', 'sandbox-gemini']) {
      const message = await client.messages.create({ model, max_tokens: 50, messages: image('https://example.com/photos/cat.png') });
      expect(message.type).toBe('message');
      expect(textOf(message)).toContain('Describe the picture');
      const internal = await http('POST', `${baseUrl()}/msgc/v1/messages`, {
        headers: msgcHeaders(tenant.key),
        json: { model, max_tokens: 50, messages: image('https://169.254.169.254/latest/meta-data') },
      });
      expect(internal.status).toBe(400);
      expect(internal.body).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringContaining('messages[0].content[0].source.url') },
      });
    }
  });

  it('records usage of a stream', async () => {
    const stream = client.messages.stream({ model: MODEL, max_tokens: 200, messages: ask('count my msgc stream') });
    const { response } = await stream.withResponse();
    const requestId = response.headers.get('x-request-id')!;
    const final = await stream.finalMessage();
    const usage = await usageRecord(requestId);
    expect(usage).toMatchObject({ model_id: MODEL, outcome: 'ok', prompt_tokens: final.usage.input_tokens, completion_tokens: final.usage.output_tokens });
  });

  describe('bad input, in the msgc dialect', () => {
    it('bearer on msgc is 401', async () => {
      const response = await http('POST', `${baseUrl()}/msgc/v1/messages`, {
        headers: { ...bearer(tenant.key), 'msgc-version': '2023-06-01' },
        json: { model: MODEL, max_tokens: 10, messages: ask('hi') },
      });
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } });
    });

    it('missing max_tokens is 400 naming it', async () => {
      const error = await client.messages.create({ model: MODEL, messages: ask('hi') } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const apiError = error as InstanceType<typeof Anthropic.BadRequestError>;
      expect(apiError.status).toBe(400);
      expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      expect(apiError.message).toContain('max_tokens');
    });

    it('an unknown model is 404', async () => {
      const error = await client.messages.create({ model: 'no-such-model', max_tokens: 10, messages: ask('hi') }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    });

    it('count_tokens of an unknown model is 404 too', async () => {
      const response = await http('POST', `${baseUrl()}/msgc/v1/messages/count_tokens`, {
        headers: msgcHeaders(tenant.key),
        json: { model: 'no-such-model', messages: ask('hi') },
      });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    });
  });
});
