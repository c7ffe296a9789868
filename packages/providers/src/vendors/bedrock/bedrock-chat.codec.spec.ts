// The Bedrock codec on its own: each family's request as a Converse call, Converse answers and
// ConverseStream events back into the IR (and on to a family), and Bedrock's errors as the gateway's.
import { ChatCompletionRequest, GatewayError, GenerateContentRequest, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { gencToolRequest, msgcToolRequest, oaicToolRequest, readSse, WEATHER_ARGS, WEATHER_ARGS_JSON } from '../../../test/fixtures/chat-fixtures';
import type { ChatIrRequest, DecodeContext, IrFamily, IrStreamEvent, SseMessage } from '../../ir/chat-ir.schema';
import { fromGencRequest } from '../../families/genc/genc-request.decoder';
import { fromMsgcRequest } from '../../families/msgc/msgc-request.decoder';
import { fromOaicRequest } from '../../families/oaic/oaic-request.decoder';
import { FAMILY_CHAT, NATIVE_FAMILY } from '../../translation/translation.registry';
import { isRetryableStatus } from '../../routing/failover';
import type { ChannelTarget } from '../../provider.types';
import { bedrockChat } from './bedrock-chat.codec';
import { bedrockStreamException } from './bedrock-error.transform';

const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const BASE = 'https://bedrock-runtime.us-east-1.amazonaws.com';
const context: DecodeContext = { model: 'any-chat', fallbackId: 'fallback-id', estimatedInputTokens: 5 };

function bedrockChannel(): ChannelTarget {
  return { id: 'ch-bedrock', providerId: 'p-bedrock', protocol: 'bedrock', baseUrl: `${BASE}/`, apiKey: null, upstreamModel: MODEL, priority: 0, weight: 1 };
}

function decode(family: IrFamily, extra: Record<string, unknown> = {}): ChatIrRequest {
  if (family === 'oaic') return fromOaicRequest(parseOrThrow(ChatCompletionRequest, oaicToolRequest(extra)));
  if (family === 'msgc') return fromMsgcRequest(parseOrThrow(MessagesRequest, msgcToolRequest(extra)));
  return fromGencRequest(parseOrThrow(GenerateContentRequest, gencToolRequest(extra)), 'any-chat', extra.stream === true);
}

// Assertions walk arbitrary JSON output; typing every path would only restate the expectations.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = Record<string, any>;

function converseBody(ir: ChatIrRequest): Json {
  return JSON.parse(bedrockChat.toRequest(ir, bedrockChannel()).body as string) as Json;
}

const ev = (event: string, payload: unknown): SseMessage => ({ event, data: JSON.stringify(payload) });

describe('bedrock codec: requests', () => {
  it.each(['oaic', 'msgc', 'genc'] as const)('sends a %s tool conversation as a Converse call', (family) => {
    const request = bedrockChat.toRequest(decode(family), bedrockChannel());
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${BASE}/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse`);
    expect(request.headers).toEqual({ 'content-type': 'application/json', accept: 'application/json' });
    const body = JSON.parse(request.body as string) as Json;
    expect(body.system).toEqual([{ text: 'Be brief.' }]);
    expect(body.messages.map((m: Json) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[0].content).toEqual([{ text: 'Weather in Paris?' }]);
    const use = body.messages[1].content[0].toolUse;
    expect(use).toMatchObject({ name: 'get_weather', input: WEATHER_ARGS });
    expect(body.messages[2].content).toEqual([
      { toolResult: { toolUseId: use.toolUseId, content: [{ text: '{"temp":18}' }], status: 'success' } },
      { text: 'And tomorrow?' },
    ]);
    expect(body.toolConfig.tools[0].toolSpec).toMatchObject({ name: 'get_weather', description: 'Current weather', inputSchema: { json: { type: 'object' } } });
    expect(body.inferenceConfig).toEqual({ maxTokens: 100 });
  });

  it('streams through converse-stream, asking for an event stream', () => {
    const request = bedrockChat.toRequest(decode('oaic', { stream: true }), bedrockChannel());
    expect(request.url).toBe(`${BASE}/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream`);
    expect(request.headers.accept).toBe('application/vnd.amazon.eventstream');
    expect(request.stream).toBe(true);
  });

  it('puts an ARN in one path segment', () => {
    const arn = `arn:aws:bedrock:us-east-1:123456789012:inference-profile/${MODEL}`;
    const request = bedrockChat.toRequest(decode('msgc'), { ...bedrockChannel(), upstreamModel: arn });
    expect(request.url).toBe(`${BASE}/model/${encodeURIComponent(arn)}/converse`);
    expect(new URL(request.url).pathname.split('/')).toHaveLength(4);
  });

  it('turns cache breakpoints into cache points and thinking into additional fields', () => {
    const body = converseBody(
      decode('msgc', {
        max_tokens: 4096,
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        thinking: { type: 'enabled', budget_tokens: 2048 },
        top_k: 5,
      }),
    );
    expect(body.system).toEqual([{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }]);
    expect(body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 }, top_k: 5 });
  });

  it('sends signed reasoning back, and leaves unsigned reasoning behind', () => {
    const ir = decode('msgc');
    ir.messages[1]!.parts.unshift(
      { type: 'reasoning', text: 'Thinking it over.', signature: 'sig_1', redacted: null },
      { type: 'reasoning', text: 'From elsewhere.', signature: null, redacted: null },
    );
    expect(converseBody(ir).messages[1].content.slice(0, 2)).toEqual([
      { reasoningContent: { reasoningText: { text: 'Thinking it over.', signature: 'sig_1' } } },
      { toolUse: expect.objectContaining({ name: 'get_weather' }) },
    ]);
  });

  it('holds structured output to an answer tool', () => {
    const ir = decode('oaic', {
      tools: undefined,
      tool_choice: undefined,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
    });
    ir.messages = [{ role: 'user', parts: [{ type: 'text', text: 'Answer.' }] }];
    const body = converseBody(ir);
    expect(body.toolConfig.tools.map((tool: Json) => tool.toolSpec.name)).toEqual(['structured_answer']);
    expect(body.toolConfig.toolChoice).toEqual({ tool: { name: 'structured_answer' } });
    expect(bedrockChat.structuredOutputTool!(ir)).toBe('structured_answer');
  });

  it("holds a thinking model's structured output to Converse's own outputConfig", () => {
    const ir = decode('msgc', { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 } });
    ir.responseFormat = {
      type: 'json_schema',
      name: 'trip',
      description: null,
      schema: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
    };
    const body = converseBody(ir);
    expect(body.outputConfig).toEqual({
      textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{"type":"object","properties":{"city":{"type":"string"}}}', name: 'trip' } } },
    });
    expect(body.toolConfig.tools.map((tool: Json) => tool.toolSpec.name)).toEqual(['get_weather']);
    expect(bedrockChat.structuredOutputTool!(ir)).toBeNull();
  });

  it('refuses what Converse cannot express, naming the client field', () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error as GatewayError;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal(() => converseBody(decode('oaic', { presence_penalty: 0.5 }))).param).toBe('presence_penalty');
    expect(refusal(() => converseBody(decode('oaic', { stop: ['a', 'b', 'c', 'd', 'e'] }))).param).toBe('stop');
    const byUrl = decode('oaic');
    byUrl.messages[0]!.parts.push({ type: 'image', mediaType: null, data: null, url: 'https://example.com/cat.png', param: 'messages.1.content.1' });
    const error = refusal(() => converseBody(byUrl));
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe('messages.1.content.1');
  });

  it('never passes a Messages body through: it is translated into Converse', () => {
    expect(bedrockChat.passThrough).toBeUndefined();
    expect(NATIVE_FAMILY.bedrock).toBeUndefined();
    const request = bedrockChat.toRequest({ ...decode('msgc'), stream: true }, bedrockChannel());
    const body = JSON.parse(request.body as string) as Json;
    expect(request.url.endsWith('/converse-stream')).toBe(true);
    expect(body).not.toHaveProperty('model');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.messages[1].content[0].toolUse.input).toEqual(WEATHER_ARGS);
  });
});

describe('bedrock codec: answers', () => {
  it('reads a Converse answer with a tool call, reasoning and cache usage', () => {
    const answer = bedrockChat.fromResponse(
      {
        output: {
          message: {
            role: 'assistant',
            content: [
              { reasoningContent: { reasoningText: { text: 'Let me look.', signature: 'sig_9' } } },
              { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: WEATHER_ARGS } },
            ],
          },
        },
        stopReason: 'tool_use',
        usage: { inputTokens: 10, outputTokens: 12, totalTokens: 42, cacheReadInputTokens: 20, cacheWriteInputTokens: 0 },
        metrics: { latencyMs: 120 },
      },
      context,
    );
    expect(answer).toEqual({
      id: 'fallback-id',
      model: 'any-chat',
      parts: [
        { type: 'reasoning', text: 'Let me look.', signature: 'sig_9', redacted: null },
        { type: 'tool_call', id: 'tooluse_1', name: 'get_weather', arguments: WEATHER_ARGS_JSON },
      ],
      stopReason: 'tool_use',
      stopSequence: null,
      usage: { inputTokens: 30, outputTokens: 12, cacheReadTokens: 20, reasoningTokens: 4 },
    });
  });

  it.each([
    ['guardrail_intervened', 'content_filter'],
    ['content_filtered', 'content_filter'],
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['end_turn', 'end_turn'],
  ])('maps the stop reason %s to %s', (stopReason, expected) => {
    const answer = bedrockChat.fromResponse(
      { output: { message: { role: 'assistant', content: [{ text: 'Hi' }] } }, stopReason, usage: { inputTokens: 1, outputTokens: 1 } },
      context,
    );
    expect(answer.stopReason).toBe(expected);
  });

  it('reads the structured-answer tool as the text answer', () => {
    const answer = bedrockChat.fromResponse(
      {
        output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: 't', name: 'structured_answer', input: { a: 1 } } }] } },
        stopReason: 'tool_use',
        usage: { inputTokens: 1, outputTokens: 1 },
      },
      { ...context, structuredOutputTool: 'structured_answer' },
    );
    expect(answer.parts).toEqual([{ type: 'text', text: '{"a":1}' }]);
    expect(answer.stopReason).toBe('end_turn');
  });

  it('refuses an answer it cannot read as the upstream fault', () => {
    expect(() => bedrockChat.fromResponse({ output: {} }, context)).toThrow(expect.objectContaining({ code: 'upstream_error', upstreamStatus: 502 }));
  });
});

const PIECES = [WEATHER_ARGS_JSON.slice(0, 7), WEATHER_ARGS_JSON.slice(7, 20), WEATHER_ARGS_JSON.slice(20)];

function converseStream(): SseMessage[] {
  return [
    ev('messageStart', { role: 'assistant' }),
    ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Let me ' } }),
    ev('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'check.' } }),
    ev('contentBlockStop', { contentBlockIndex: 0 }),
    ev('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather' } } }),
    ...PIECES.map((input) => ev('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input } } })),
    ev('contentBlockStop', { contentBlockIndex: 1 }),
    ev('messageStop', { stopReason: 'tool_use' }),
    ev('metadata', { usage: { inputTokens: 30, outputTokens: 12, totalTokens: 42 }, metrics: { latencyMs: 300 } }),
  ];
}

function decodeStream(messages: SseMessage[], decodeContext = context): IrStreamEvent[] {
  const decoder = bedrockChat.streamDecoder(decodeContext);
  return [...messages.flatMap((message) => decoder.push(message)), ...decoder.end()];
}

describe('bedrock codec: streams', () => {
  it('decodes ConverseStream events into IR events, finishing on metadata', () => {
    expect(decodeStream(converseStream())).toEqual([
      { type: 'start', id: 'fallback-id', model: 'any-chat', inputTokens: null },
      { type: 'text_delta', text: 'Let me ' },
      { type: 'text_delta', text: 'check.' },
      { type: 'block_stop' },
      { type: 'tool_call_start', index: 0, id: 'tooluse_1', name: 'get_weather' },
      ...PIECES.map((piece) => ({ type: 'tool_call_delta', index: 0, arguments: piece })),
      { type: 'block_stop' },
      { type: 'finish', stopReason: 'tool_use', stopSequence: null, usage: { inputTokens: 30, outputTokens: 12 } },
    ]);
  });

  it.each(['oaic', 'msgc', 'genc'] as const)('streams the tool call losslessly on to a %s client', (family) => {
    const encoder = FAMILY_CHAT[family].streamEncoder('fallback-id', 'any-chat');
    const text =
      decodeStream(converseStream())
        .map((event) => encoder.push(event))
        .join('') + encoder.end();
    const json = readSse(text)
      .filter((frame) => frame.data.startsWith('{'))
      .map((frame) => JSON.parse(frame.data) as Json);
    if (family === 'oaic') {
      const args = json.map((chunk) => chunk.choices?.[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? '').join('');
      expect(JSON.parse(args)).toEqual(WEATHER_ARGS);
    } else if (family === 'msgc') {
      const args = json.map((event) => (event.delta?.type === 'input_json_delta' ? event.delta.partial_json : '')).join('');
      expect(JSON.parse(args)).toEqual(WEATHER_ARGS);
    } else {
      const call = json.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []).find((part: Json) => part.functionCall);
      expect(call.functionCall.args).toEqual(WEATHER_ARGS);
    }
  });

  it('streams reasoning text, then its signature', () => {
    const events = decodeStream([
      ev('messageStart', { role: 'assistant' }),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { text: 'Hmm.' } } }),
      ev('contentBlockDelta', { contentBlockIndex: 0, delta: { reasoningContent: { signature: 'sig_2' } } }),
      ev('contentBlockStop', { contentBlockIndex: 0 }),
      ev('contentBlockDelta', { contentBlockIndex: 1, delta: { text: 'Yes.' } }),
      ev('contentBlockStop', { contentBlockIndex: 1 }),
      ev('messageStop', { stopReason: 'end_turn' }),
    ]);
    expect(events.slice(1, 6)).toEqual([
      { type: 'reasoning_delta', text: 'Hmm.' },
      { type: 'reasoning_signature', signature: 'sig_2' },
      { type: 'block_stop' },
      { type: 'text_delta', text: 'Yes.' },
      { type: 'block_stop' },
    ]);
    // No metadata came: the usage is estimated, and the end still finishes the stream.
    expect(events.at(-1)).toEqual({
      type: 'finish',
      stopReason: 'end_turn',
      stopSequence: null,
      usage: { inputTokens: 5, outputTokens: 4, reasoningTokens: 2 },
    });
  });

  it('turns the structured-answer tool into text deltas', () => {
    const events = decodeStream(
      [
        ev('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: 't', name: 'structured_answer' } } }),
        ev('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '{"a":' } } }),
        ev('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: '1}' } } }),
        ev('contentBlockStop', { contentBlockIndex: 0 }),
        ev('messageStop', { stopReason: 'tool_use' }),
        ev('metadata', { usage: { inputTokens: 3, outputTokens: 4 } }),
      ],
      { ...context, structuredOutputTool: 'structured_answer' },
    );
    expect(events.filter((event) => event.type === 'text_delta').map((event) => (event as { text: string }).text)).toEqual(['{"a":', '1}']);
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'end_turn' });
  });
});

describe('bedrock codec: errors', () => {
  const error = (status: number, type: string, message = 'boom') =>
    bedrockChat.fromError(status, JSON.stringify({ message }), {
      headers: { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` },
    });

  it('keeps throttling, model-not-ready and unavailable retryable on the next channel', () => {
    for (const [status, type] of [
      [429, 'ThrottlingException'],
      [429, 'ModelNotReadyException'],
      [503, 'ServiceUnavailableException'],
    ] as const) {
      const mapped = error(status, type);
      expect(mapped.upstreamStatus).toBe(status);
      expect(isRetryableStatus(status)).toBe(true);
      expect(mapped.message).toContain(type);
    }
    expect(error(429, 'ThrottlingException').code).toBe('rate_limited');
    expect(error(503, 'ServiceUnavailableException').code).toBe('upstream_error');
  });

  it("makes a validation error the client's 400 and a refused signature the gateway's 502", () => {
    const invalid = error(400, 'ValidationException', 'messages.0.role is wrong');
    expect(invalid.code).toBe('invalid_request');
    expect(invalid.message).toContain('messages.0.role is wrong');
    expect(error(403, 'InvalidSignatureException').code).toBe('upstream_error');
  });

  it('counts a spent quota as a rate limit', () => {
    expect(error(400, 'ServiceQuotaExceededException').code).toBe('rate_limited');
  });

  it('maps an exception inside a stream by its member name', () => {
    expect(bedrockStreamException('throttlingException', 'slow down')).toMatchObject({ code: 'rate_limited', upstreamStatus: 429 });
    expect(bedrockStreamException('validationException', 'bad')).toMatchObject({ code: 'invalid_request' });
    expect(bedrockStreamException('modelStreamErrorException', 'stopped')).toMatchObject({ code: 'upstream_error' });
  });
});
