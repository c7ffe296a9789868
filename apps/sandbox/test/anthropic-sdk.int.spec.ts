// Drives the sandbox's Anthropic protocol with the official @anthropic-ai/sdk, as an upstream client would.
import Anthropic from '@anthropic-ai/sdk';
import type { FastifyInstance } from 'fastify';
import { buildSandboxApp } from '../src/sandbox.app';

let app: FastifyInstance;
let base: string;
let client: Anthropic;

beforeAll(async () => {
  ({ app } = await buildSandboxApp());
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  client = new Anthropic({ apiKey: null, baseURL: `${base}/anthropic`, defaultHeaders: { 'x-api-key': 'sk-ant-upstream' }, maxRetries: 0, timeout: 5000 });
});

afterAll(async () => {
  await app.close();
});

const weather: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather now',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('sandbox Anthropic protocol via @anthropic-ai/sdk', () => {
  it('answers a message with usage', async () => {
    const message = await client.messages.create({
      model: 'sandbox-claude',
      max_tokens: 64,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Tell me the plan.' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: Tell me the plan.' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBe(8);
    expect(message.usage.output_tokens).toBe(8);
  });

  it('streams the same text with the full event sequence', async () => {
    const params = { model: 'sandbox-claude', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Tell me the plan.' }] };
    const final = await client.messages.stream(params).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'You said: Tell me the plan.' }]);
    expect(final.usage.output_tokens).toBe(8);
    // The SDK hides ping events, so the sequence is read from the wire.
    const raw = await fetch(`${base}/anthropic/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ ...params, stream: true }),
    });
    const names = (await raw.text())
      .split('\n')
      .filter((line) => line.startsWith('event: '))
      .map((line) => line.slice(7));
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(names.filter((name) => name === 'content_block_delta').length).toBeGreaterThan(1);
  });

  it('honours stop_sequences and max_tokens', async () => {
    const stopped = await client.messages.create({
      model: 'sandbox-claude',
      max_tokens: 64,
      stop_sequences: ['plan'],
      messages: [{ role: 'user', content: 'Tell me the plan.' }],
    });
    expect(stopped.content).toEqual([{ type: 'text', text: 'You said: Tell me the' }]);
    expect(stopped.stop_reason).toBe('stop_sequence');
    expect(stopped.stop_sequence).toBe('plan');
    const cut = await client.messages.create({ model: 'sandbox-claude', max_tokens: 2, messages: [{ role: 'user', content: 'Tell me the plan.' }] });
    expect(cut.stop_reason).toBe('max_tokens');
    expect(cut.usage.output_tokens).toBe(2);
  });

  it('calls a tool, streams its input in several deltas, and answers the tool result', async () => {
    const ask = { role: 'user' as const, content: 'Paris' };
    const stream = client.messages.stream({ model: 'sandbox-claude', max_tokens: 64, tools: [weather], messages: [ask] });
    let jsonDeltas = 0;
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') jsonDeltas++;
    });
    const call = await stream.finalMessage();
    expect(jsonDeltas).toBeGreaterThan(1);
    expect(call.stop_reason).toBe('tool_use');
    const use = call.content[0] as Anthropic.ToolUseBlock;
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });

    const answer = await client.messages.create({
      model: 'sandbox-claude',
      max_tokens: 64,
      tools: [weather],
      messages: [ask, { role: 'assistant', content: call.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18C' }] }],
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'The get_weather tool returned: 18C' }]);
  });

  it('counts tokens without generating', async () => {
    const counted = await client.messages.countTokens({
      model: 'sandbox-claude',
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Tell me the plan.' }],
    });
    expect(counted).toEqual({ input_tokens: 8 });
  });

  it('lists its models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['sandbox-claude']);
  });

  it('refuses a call without x-api-key, and a body without max_tokens, in the Anthropic dialect', async () => {
    const anonymous = await fetch(`${base}/anthropic/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const error = await client.messages
      .create({ model: 'sandbox-claude', messages: [{ role: 'user', content: 'x' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('max_tokens');
  });

  it('fails on demand through the model suffix', async () => {
    const error = await client.messages
      .create({ model: 'sandbox-claude@fail=429', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
  });
});
