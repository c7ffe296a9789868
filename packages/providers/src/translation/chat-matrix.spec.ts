// Every (public family × upstream protocol) pair: the request, the whole answer, and a streamed tool-call
// answer all come out in the expected public shapes, with tool arguments whole and usage at the end.
import {
  ChatCompletionRequest,
  GenerateContentBody,
  GenerateContentRequest,
  GenerateContentResponse,
  MessagesRequest,
  MessagesResponse,
  parseOrThrow,
} from '@gateway/contracts';
import {
  ARG_PIECES,
  channel,
  gencToolRequest,
  msgcToolRequest,
  oaicToolRequest,
  readSse,
  TOOL_ANSWER,
  toolStream,
  WEATHER_ARGS,
} from '../../test/fixtures/chat-fixtures';
import { ChatCompletion } from '../vendors/openai/openai-response.schema';
import type { ChatIrRequest, IrFamily } from '../ir/chat-ir.schema';
import { fromGencRequest } from '../families/genc/genc-request.decoder';
import { fromMsgcRequest } from '../families/msgc/msgc-request.decoder';
import { fromOaicRequest } from '../families/oaic/oaic-request.decoder';
import { type ChatUpstream, FAMILY_CHAT, UPSTREAM_CHAT } from './translation.registry';

/** Azure OpenAI sends OpenAI's bodies (azure-openai-chat.codec.spec.ts holds it to that): the matrix covers the three dialects. */
type ChatProtocol = Extract<ChatUpstream, 'openai' | 'anthropic' | 'gemini'>;

const FAMILIES: IrFamily[] = ['oaic', 'msgc', 'genc'];
const PROTOCOLS: ChatProtocol[] = ['openai', 'anthropic', 'gemini'];
const PAIRS = FAMILIES.flatMap((family) => PROTOCOLS.map((protocol) => [family, protocol] as const));
const context = { model: 'any-chat', fallbackId: 'fallback-id', estimatedInputTokens: 5 };

function decode(family: IrFamily, stream = false): ChatIrRequest {
  if (family === 'oaic') return fromOaicRequest(parseOrThrow(ChatCompletionRequest, oaicToolRequest({ stream })));
  if (family === 'msgc') return fromMsgcRequest(parseOrThrow(MessagesRequest, msgcToolRequest({ stream })));
  return fromGencRequest(parseOrThrow(GenerateContentRequest, gencToolRequest()), 'any-chat', stream);
}

// Assertions walk arbitrary JSON output; typing every path would only restate the expectations.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = Record<string, any>;

function checkUpstreamRequest(protocol: ChatProtocol, family: IrFamily): void {
  const request = UPSTREAM_CHAT[protocol].toRequest(decode(family), channel(protocol));
  const body = JSON.parse(request.body as string) as Json;
  expect(request.method).toBe('POST');
  if (protocol === 'openai') {
    parseOrThrow(ChatCompletionRequest, body);
    expect(request.url).toBe('https://upstream.example/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer upstream-key');
    expect(body.model).toBe('up-openai');
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const call = body.messages.find((m: Json) => m.tool_calls).tool_calls[0];
    expect(JSON.parse(call.function.arguments)).toEqual(WEATHER_ARGS);
    const tool = body.messages.find((m: Json) => m.role === 'tool');
    expect(tool.tool_call_id).toBe(call.id);
    expect(JSON.parse(tool.content)).toEqual({ temp: 18 });
    expect(body.messages[body.messages.length - 1]).toEqual({ role: 'user', content: 'And tomorrow?' });
    expect(body.tools[0].function.name).toBe('get_weather');
  } else if (protocol === 'anthropic') {
    parseOrThrow(MessagesRequest, body);
    expect(request.url).toBe('https://upstream.example/v1/messages');
    expect(request.headers['x-api-key']).toBe('upstream-key');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(body.messages.map((m: Json) => m.role)).toEqual(['user', 'assistant', 'user']);
    const use = body.messages[1].content[0];
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: WEATHER_ARGS });
    expect(body.messages[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: use.id });
    expect(JSON.parse(body.messages[2].content[0].content)).toEqual({ temp: 18 });
    expect(body.messages[2].content[1]).toEqual({ type: 'text', text: 'And tomorrow?' });
    expect(body.max_tokens).toBe(100);
  } else {
    parseOrThrow(GenerateContentBody, body);
    expect(request.url).toBe('https://upstream.example/v1/models/up-gemini:generateContent');
    expect(request.headers['x-goog-api-key']).toBe('upstream-key');
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents.map((c: Json) => c.role)).toEqual(['user', 'model', 'user']);
    expect(body.contents[1].parts[0].functionCall).toEqual({ name: 'get_weather', args: WEATHER_ARGS });
    expect(body.contents[2].parts[0].functionResponse).toEqual({ name: 'get_weather', response: { temp: 18 } });
    expect(body.contents[2].parts[1]).toEqual({ text: 'And tomorrow?' });
    expect(body.generationConfig.maxOutputTokens).toBe(100);
  }
}

function checkAnswer(family: IrFamily, protocol: ChatProtocol): void {
  const ir = UPSTREAM_CHAT[protocol].fromResponse(TOOL_ANSWER[protocol], context);
  const out = FAMILY_CHAT[family].toResponse(ir) as Json;
  if (family === 'oaic') {
    ChatCompletion.parse(out);
    expect(out.model).toBe('any-chat');
    expect(out.choices[0].finish_reason).toBe('tool_calls');
    expect(out.choices[0].message.tool_calls[0].function.name).toBe('get_weather');
    expect(JSON.parse(out.choices[0].message.tool_calls[0].function.arguments)).toEqual(WEATHER_ARGS);
    expect(out.usage).toEqual({ prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 });
  } else if (family === 'msgc') {
    MessagesResponse.parse(out);
    expect(out.stop_reason).toBe('tool_use');
    expect(out.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: WEATHER_ARGS });
    expect(out.usage).toEqual({ input_tokens: 30, output_tokens: 12 });
  } else {
    GenerateContentResponse.parse(out);
    expect(out.candidates[0].finishReason).toBe('STOP');
    expect(out.candidates[0].content.parts[0].functionCall).toMatchObject({ name: 'get_weather', args: WEATHER_ARGS });
    expect(out.usageMetadata).toEqual({ promptTokenCount: 30, candidatesTokenCount: 12, totalTokenCount: 42 });
  }
}

function translateStream(family: IrFamily, protocol: ChatProtocol): string {
  const decoder = UPSTREAM_CHAT[protocol].streamDecoder(context);
  const encoder = FAMILY_CHAT[family].streamEncoder('fallback-id', 'any-chat');
  let out = '';
  for (const message of toolStream(protocol)) for (const event of decoder.push(message)) out += encoder.push(event);
  for (const event of decoder.end()) out += encoder.push(event);
  return out + encoder.end();
}

function checkStream(family: IrFamily, protocol: ChatProtocol): void {
  const frames = readSse(translateStream(family, protocol));
  if (family === 'oaic') {
    expect(frames[frames.length - 1]!.data).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame.data) as Json);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'any-chat')).toBe(true);
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      .map((t: Json) => t.function.arguments ?? '')
      .join('');
    expect(JSON.parse(args)).toEqual(WEATHER_ARGS);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Checking.');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)!.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks[chunks.length - 1]!.usage).toEqual({ prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 });
  } else if (family === 'msgc') {
    const events = frames.map((frame) => ({ name: frame.event, body: JSON.parse(frame.data) as Json }));
    expect(events.every((e) => e.name === e.body.type)).toBe(true);
    expect(events.slice(0, 3).map((e) => e.name)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(events.slice(-2).map((e) => e.name)).toEqual(['message_delta', 'message_stop']);
    const starts = events.filter((e) => e.name === 'content_block_start').length;
    expect(events.filter((e) => e.name === 'content_block_stop')).toHaveLength(starts);
    const args = events
      .filter((e) => e.body.delta?.type === 'input_json_delta')
      .map((e) => e.body.delta.partial_json)
      .join('');
    expect(JSON.parse(args)).toEqual(WEATHER_ARGS);
    const delta = events[events.length - 2]!.body;
    expect(delta.delta.stop_reason).toBe('tool_use');
    expect(delta.usage).toEqual({ input_tokens: 30, output_tokens: 12 });
  } else {
    const chunks = frames.map((frame) => GenerateContentResponse.parse(JSON.parse(frame.data)));
    const parts = chunks.flatMap((chunk) => chunk.candidates?.[0]?.content?.parts ?? []);
    const calls = parts.filter((part) => part.functionCall);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.functionCall).toMatchObject({ name: 'get_weather', args: WEATHER_ARGS });
    expect(parts.map((part) => part.text ?? '').join('')).toBe('Checking.');
    const last = chunks[chunks.length - 1]!;
    expect(last.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last.usageMetadata).toEqual({ promptTokenCount: 30, candidatesTokenCount: 12, totalTokenCount: 42 });
  }
}

describe.each(PAIRS)('%s client → %s upstream', (family, protocol) => {
  it('translates the request', () => checkUpstreamRequest(protocol, family));
  it('translates a tool-call answer', () => checkAnswer(family, protocol));
  it('translates a streamed tool-call answer with whole arguments and usage at the end', () => checkStream(family, protocol));
});

it('streams the arguments in more than one piece upstream', () => {
  expect(ARG_PIECES.filter((piece) => piece.length > 0).length).toBe(3);
});
