// Regressions for what gateways commonly get wrong when translating chat between families.
import { ChatCompletionRequest, GatewayError, GenerateContentRequest, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { channel, readSse } from '../../test/fixtures/chat-fixtures';
import { toAnthropicRequest } from '../vendors/anthropic';
import { toGeminiRequest } from '../vendors/gemini';
import type { ChatIrRequest } from '../ir/chat-ir.schema';
import { fromGencRequest } from '../families/genc/genc-request.decoder';
import { fromMsgcRequest } from '../families/msgc/msgc-request.decoder';
import { fromOaicRequest } from '../families/oaic/oaic-request.decoder';
import { OaicStreamEncoder } from '../families/oaic/oaic-stream.encoder';
import { toOpenaiRequest } from '../vendors/openai/openai-chat-request.transform';
import { OpenaiStreamDecoder } from '../vendors/openai/openai-chat-response.transform';
import * as stop from '../ir/stop-reason.map';
import { countTokens } from '../ir/token-estimator';

const bodyOf = (request: { body?: unknown }) => JSON.parse(request.body as string) as Record<string, unknown> & { messages: Array<Record<string, unknown>> };
const oaic = (body: Record<string, unknown>): ChatIrRequest => fromOaicRequest(parseOrThrow(ChatCompletionRequest, { model: 'm', ...body }));
const msgc = (body: Record<string, unknown>): ChatIrRequest => fromMsgcRequest(parseOrThrow(MessagesRequest, { model: 'm', max_tokens: 10, ...body }));
const genc = (body: Record<string, unknown>): ChatIrRequest => fromGencRequest(parseOrThrow(GenerateContentRequest, body), 'm', false);

function errorOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('system prompts', () => {
  it('moves an oaic system message from the middle of messages to the Anthropic top-level system', () => {
    const ir = oaic({
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'again' },
      ],
    });
    const body = bodyOf(toAnthropicRequest(ir, channel('anthropic')));
    expect(body.system).toEqual([{ type: 'text', text: 'Answer in French.' }]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });

  it('sends msgc system blocks to an OpenAI upstream as one leading system message', () => {
    const ir = msgc({
      system: [
        { type: 'text', text: 'One.' },
        { type: 'text', text: 'Two.' },
      ],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(bodyOf(toOpenaiRequest(ir, channel('openai'))).messages).toEqual([
      { role: 'system', content: 'One.\n\nTwo.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('sends a msgc system string to Gemini as systemInstruction', () => {
    const ir = msgc({ system: 'Be terse.', messages: [{ role: 'user', content: 'hi' }] });
    const body = bodyOf(toGeminiRequest(ir, channel('gemini')));
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be terse.' }] });
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
  });
});

describe('stop reasons', () => {
  it.each([
    ['stop', 'end_turn', 'STOP'],
    ['length', 'max_tokens', 'MAX_TOKENS'],
    ['tool_calls', 'tool_use', 'STOP'],
    ['content_filter', 'refusal', 'SAFETY'],
  ] as const)('%s ↔ %s ↔ %s', (oaicReason, msgcReason, gencReason) => {
    const ir = stop.fromOaicFinishReason(oaicReason);
    expect(stop.toMsgcStopReason(ir)).toBe(msgcReason);
    expect(stop.toGencFinishReason(ir)).toBe(gencReason);
    expect(stop.toOaicFinishReason(stop.fromMsgcStopReason(msgcReason))).toBe(oaicReason);
    expect(stop.toOaicFinishReason(stop.fromGencFinishReason(gencReason, oaicReason === 'tool_calls'))).toBe(oaicReason);
  });

  it('keeps stop_sequence for msgc and treats other Gemini filters as content_filter', () => {
    expect(stop.toMsgcStopReason(stop.fromMsgcStopReason('stop_sequence'))).toBe('stop_sequence');
    expect(stop.fromGencFinishReason('RECITATION', false)).toBe('content_filter');
  });
});

describe('usage at the end of a translated stream', () => {
  it('asks an OpenAI upstream for stream usage', () => {
    const body = bodyOf(toOpenaiRequest(msgc({ stream: true, messages: [{ role: 'user', content: 'hi' }] }), channel('openai')));
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('estimates usage when the upstream stream sends none', () => {
    const decoder = new OpenaiStreamDecoder({ model: 'm', fallbackId: 'x', estimatedInputTokens: 7 });
    const encoder = new OaicStreamEncoder('x', 'm', 1);
    let out = '';
    const chunk = (delta: unknown, finish: string | null = null) => ({
      data: JSON.stringify({ id: 'c', choices: [{ index: 0, delta, finish_reason: finish }] }),
    });
    for (const message of [chunk({ content: 'three small words' }), chunk({}, 'stop'), { data: '[DONE]' }]) {
      for (const event of decoder.push(message)) out += encoder.push(event);
    }
    for (const event of decoder.end()) out += encoder.push(event);
    const frames = readSse(out);
    expect(frames[frames.length - 1]!.data).toBe('[DONE]');
    expect(JSON.parse(frames[frames.length - 2]!.data).usage).toEqual({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  });
});

describe('tool results', () => {
  it('recovers the function name Gemini needs from the earlier oaic tool call', () => {
    const ir = oaic({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a1', type: 'function', function: { name: 'lookup', arguments: '{"q":1}' } }] },
        { role: 'tool', tool_call_id: 'a1', content: 'plain text result' },
      ],
    });
    const body = bodyOf(toGeminiRequest(ir, channel('gemini'))) as unknown as { contents: Array<{ parts: unknown[] }> };
    expect(body.contents[2]!.parts[0]).toEqual({ functionResponse: { name: 'lookup', response: { result: 'plain text result' } } });
  });

  it('refuses a tool result that answers no call', () => {
    const ir = oaic({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'tool', tool_call_id: 'zz', content: 'x' },
      ],
    });
    expect(errorOf(() => toGeminiRequest(ir, channel('gemini'))).code).toBe('invalid_request');
  });

  it('links a genc functionResponse to its call by id for an OpenAI upstream', () => {
    const ir = genc({
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }, { functionCall: { name: 'f', args: { n: 2 } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { r: 1 } } }, { functionResponse: { name: 'f', response: { r: 2 } } }] },
      ],
    });
    const messages = bodyOf(toOpenaiRequest(ir, channel('openai'))).messages;
    const ids = (messages[1]!.tool_calls as Array<{ id: string }>).map((call) => call.id);
    expect(messages.slice(2).map((m) => m.tool_call_id)).toEqual(ids);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('images', () => {
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

  it('turns an oaic data URL into msgc base64 and genc inlineData', () => {
    const ir = oaic({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          ],
        },
      ],
    });
    const anthropic = bodyOf(toAnthropicRequest(ir, channel('anthropic'))).messages[0]!.content as unknown[];
    expect(anthropic[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } });
    const gemini = bodyOf(toGeminiRequest(ir, channel('gemini'))) as unknown as { contents: Array<{ parts: unknown[] }> };
    expect(gemini.contents[0]!.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: png } });
  });

  it('turns msgc base64 into an oaic data URL', () => {
    const ir = msgc({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'text', text: 'what?' },
          ],
        },
      ],
    });
    expect(bodyOf(toOpenaiRequest(ir, channel('openai'))).messages[0]!.content).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      { type: 'text', text: 'what?' },
    ]);
  });

  it('sends an https image to an Anthropic upstream as a url source', () => {
    const ir = oaic({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          ],
        },
      ],
    });
    const anthropic = bodyOf(toAnthropicRequest(ir, channel('anthropic'))).messages[0]!.content as unknown[];
    expect(anthropic[1]).toEqual({ type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } });
  });

  it('sends genc fileData to other upstreams as a URL', () => {
    const ir = genc({ contents: [{ role: 'user', parts: [{ text: 'see' }, { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } }] }] });
    expect(bodyOf(toOpenaiRequest(ir, channel('openai'))).messages[0]!.content).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
    ]);
    const anthropic = bodyOf(toAnthropicRequest(ir, channel('anthropic'))).messages[0]!.content as unknown[];
    expect(anthropic[1]).toEqual({ type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } });
  });

  it('carries an msgc url image source: OpenAI image_url, Gemini fileData.fileUri, Anthropic a url source', () => {
    const url = 'https://example.com/photos/cat.jpg';
    const ir = msgc({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url } },
            { type: 'text', text: 'what?' },
          ],
        },
      ],
    });
    expect(bodyOf(toOpenaiRequest(ir, channel('openai'))).messages[0]!.content).toEqual([
      { type: 'image_url', image_url: { url } },
      { type: 'text', text: 'what?' },
    ]);
    const gemini = bodyOf(toGeminiRequest(ir, channel('gemini'))) as unknown as { contents: Array<{ parts: unknown[] }> };
    expect(gemini.contents[0]!.parts[0]).toEqual({ fileData: { mimeType: 'image/jpeg', fileUri: url } });
    const anthropic = bodyOf(toAnthropicRequest(ir, channel('anthropic'))).messages[0]!.content as unknown[];
    expect(anthropic[0]).toEqual({ type: 'image', source: { type: 'url', url } });
  });

  it('refuses an internal msgc image URL at its source.url', () => {
    const error = errorOf(() =>
      msgc({ messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://169.254.169.254/latest/meta-data' } }] }] }),
    );
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe('messages[0].content[0].source.url');
  });

  it('refuses non-image inline media', () => {
    const error = errorOf(() => genc({ contents: [{ parts: [{ text: 'x' }, { inlineData: { mimeType: 'audio/wav', data: 'AAAA' } }] }] }));
    expect(error.param).toBe('contents[0].parts[1].inlineData.mimeType');
  });
});

describe('fields the target cannot express', () => {
  it('names the field in the family the client used', () => {
    expect(errorOf(() => toOpenaiRequest(genc({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { topK: 3 } }), channel('openai'))).param).toBe(
      'generationConfig.topK',
    );
    expect(errorOf(() => toOpenaiRequest(msgc({ top_k: 3, messages: [{ role: 'user', content: 'x' }] }), channel('openai'))).param).toBe('top_k');
    expect(errorOf(() => toAnthropicRequest(oaic({ temperature: 1.5, messages: [{ role: 'user', content: 'x' }] }), channel('anthropic'))).param).toBe(
      'temperature',
    );
    expect(errorOf(() => toAnthropicRequest(oaic({ presence_penalty: 0.5, messages: [{ role: 'user', content: 'x' }] }), channel('anthropic'))).param).toBe(
      'presence_penalty',
    );
    const image = genc({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } });
    expect(errorOf(() => toAnthropicRequest(image, channel('anthropic'))).param).toBe('generationConfig.responseModalities');
    expect(errorOf(() => oaic({ n: 2, messages: [{ role: 'user', content: 'x' }] })).param).toBe('n');
  });

  it('passes a zero penalty (the default) to Anthropic without complaint', () => {
    expect(() => toAnthropicRequest(oaic({ presence_penalty: 0, messages: [{ role: 'user', content: 'x' }] }), channel('anthropic'))).not.toThrow();
  });
});

describe('countTokens', () => {
  it('is deterministic and counts system, messages and tools', () => {
    const base = msgc({ messages: [{ role: 'user', content: 'Hello, world!' }] });
    expect(countTokens(base)).toBe(4);
    const more = msgc({
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello, world!' }],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
    });
    expect(countTokens(more)).toBe(4 + 3 + 1 + countTokens({ ...base, messages: [{ role: 'user', parts: [{ type: 'text', text: '{"type":"object"}' }] }] }));
  });
});
