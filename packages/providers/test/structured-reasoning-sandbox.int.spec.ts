// Structured output and reasoning across every (family × protocol) pair against the real sandbox
// upstreams: the answer's text is an instance of the requested schema, whole and streamed, and reasoning
// comes back in the family's own shape with its tokens in the family's usage field.
import { ChatCompletionRequest, GenerateContentRequest, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { buildSandboxApp } from '@gateway/sandbox';
import type { FastifyInstance } from 'fastify';
import {
  type ChatIrRequest,
  type ChatUpstream,
  closeUpstreamConnections,
  countTokens,
  FAMILY_CHAT,
  fromGencRequest,
  fromMsgcRequest,
  fromOaicRequest,
  type IrFamily,
  parseSse,
  readBodyJson,
  sendUpstream,
  UPSTREAM_CHAT,
} from '../src';
import { readSse } from './fixtures/chat-fixtures';

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  ({ app } = await buildSandboxApp());
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await closeUpstreamConnections();
  await app.close();
});

type ChatProtocol = Extract<ChatUpstream, 'openai' | 'anthropic' | 'gemini' | 'azure-openai'>;

const PREFIX: Record<ChatProtocol, string> = { openai: '/openai/v1', anthropic: '/anthropic/v1', gemini: '/gemini/v1beta', 'azure-openai': '/azure' };
const MODEL: Record<ChatProtocol, string> = { openai: 'sandbox-gpt', anthropic: 'sandbox-claude', gemini: 'sandbox-gemini', 'azure-openai': 'sandbox-gpt' };
/** Azure's sandbox takes its own key, on the deployment paths. */
const AZURE = { apiKey: 'sandbox-azure-key', settings: { apiVersion: '2024-10-21', paths: 'deployments' } };
const channel = (protocol: ChatProtocol) => ({
  id: `ch-${protocol}`,
  providerId: `sandbox-${protocol}`,
  protocol,
  baseUrl: `${base}${PREFIX[protocol]}`,
  apiKey: 'sandbox-key',
  upstreamModel: MODEL[protocol],
  priority: 0,
  weight: 1,
  ...(protocol === 'azure-openai' ? AZURE : {}),
});

const PERSON = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 1 } },
  required: ['name', 'age'],
  additionalProperties: false,
};

function structured(family: IrFamily, stream: boolean): ChatIrRequest {
  const text = 'Ada Lovelace';
  if (family === 'oaic')
    return fromOaicRequest(
      parseOrThrow(ChatCompletionRequest, {
        model: 'pub',
        stream,
        messages: [{ role: 'user', content: text }],
        response_format: { type: 'json_schema', json_schema: { name: 'person', schema: PERSON, strict: true } },
      }),
    );
  if (family === 'msgc')
    return fromMsgcRequest(
      parseOrThrow(MessagesRequest, {
        model: 'pub',
        max_tokens: 256,
        stream,
        messages: [{ role: 'user', content: text }],
        output_format: { type: 'json_schema', schema: PERSON },
      }),
    );
  const body = { contents: [{ role: 'user', parts: [{ text }] }], generationConfig: { responseMimeType: 'application/json', responseJsonSchema: PERSON } };
  return fromGencRequest(parseOrThrow(GenerateContentRequest, body), 'pub', stream);
}

function reasoning(family: IrFamily, stream: boolean): ChatIrRequest {
  const text = 'Why is the sky blue?';
  if (family === 'oaic')
    return fromOaicRequest(
      parseOrThrow(ChatCompletionRequest, { model: 'pub', stream, max_tokens: 4096, messages: [{ role: 'user', content: text }], reasoning_effort: 'low' }),
    );
  if (family === 'msgc')
    return fromMsgcRequest(
      parseOrThrow(MessagesRequest, {
        model: 'pub',
        max_tokens: 4096,
        stream,
        messages: [{ role: 'user', content: text }],
        thinking: { type: 'enabled', budget_tokens: 2048 },
      }),
    );
  const body = { contents: [{ role: 'user', parts: [{ text }] }], generationConfig: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } } };
  return fromGencRequest(parseOrThrow(GenerateContentRequest, body), 'pub', stream);
}

const contextOf = (protocol: ChatProtocol, ir: ChatIrRequest) => ({
  model: 'pub',
  fallbackId: 'id',
  estimatedInputTokens: countTokens(ir),
  structuredOutputTool: UPSTREAM_CHAT[protocol].structuredOutputTool?.(ir) ?? null,
});

// Answers are walked as arbitrary JSON; typing every path would only restate the expectations.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = Record<string, any>;

async function whole(family: IrFamily, protocol: ChatProtocol, ir: ChatIrRequest): Promise<Json> {
  const response = await sendUpstream(UPSTREAM_CHAT[protocol].toRequest(ir, channel(protocol)));
  expect(response.status).toBe(200);
  return FAMILY_CHAT[family].toResponse(UPSTREAM_CHAT[protocol].fromResponse(await readBodyJson(response.body), contextOf(protocol, ir))) as Json;
}

async function streamed(family: IrFamily, protocol: ChatProtocol, ir: ChatIrRequest): Promise<Json[]> {
  const response = await sendUpstream(UPSTREAM_CHAT[protocol].toRequest(ir, channel(protocol)));
  expect(response.status).toBe(200);
  const decoder = UPSTREAM_CHAT[protocol].streamDecoder(contextOf(protocol, ir));
  const encoder = FAMILY_CHAT[family].streamEncoder('id', 'pub');
  let out = '';
  for await (const message of parseSse(response.body)) for (const event of decoder.push(message)) out += encoder.push(event);
  for (const event of decoder.end()) out += encoder.push(event);
  out += encoder.end();
  return readSse(out)
    .filter((frame) => frame.data !== '[DONE]')
    .map((frame) => JSON.parse(frame.data) as Json);
}

function answerText(family: IrFamily, answer: Json): string {
  if (family === 'oaic') return answer.choices[0].message.content;
  if (family === 'msgc')
    return answer.content
      .filter((b: Json) => b.type === 'text')
      .map((b: Json) => b.text)
      .join('');
  return answer.candidates[0].content.parts
    .filter((p: Json) => !p.thought && p.text)
    .map((p: Json) => p.text)
    .join('');
}

function streamedText(family: IrFamily, frames: Json[]): string {
  if (family === 'oaic') return frames.map((f) => f.choices[0]?.delta?.content ?? '').join('');
  if (family === 'msgc')
    return frames
      .filter((f) => f.type === 'content_block_delta')
      .map((f) => f.delta.text ?? '')
      .join('');
  return frames
    .flatMap((f) => f.candidates[0].content.parts)
    .filter((p: Json) => !p.thought)
    .map((p: Json) => p.text ?? '')
    .join('');
}

const PAIRS = (['oaic', 'msgc', 'genc'] as const).flatMap((family) =>
  (['openai', 'anthropic', 'gemini', 'azure-openai'] as const).map((protocol) => [family, protocol] as const),
);

describe.each(PAIRS)('%s client → %s sandbox', (family, protocol) => {
  it('answers a two-field schema with an instance of it, whole and streamed', async () => {
    const expected = { name: 'Ada Lovelace', age: 1 };
    expect(JSON.parse(answerText(family, await whole(family, protocol, structured(family, false))))).toEqual(expected);
    expect(JSON.parse(streamedText(family, await streamed(family, protocol, structured(family, true))))).toEqual(expected);
  });

  it('returns reasoning in the family shape, its tokens in the family usage field', async () => {
    const answer = await whole(family, protocol, reasoning(family, false));
    // The OpenAI protocol (Azure's too) keeps its reasoning text to itself: only its token count crosses.
    const shown = protocol !== 'openai' && protocol !== 'azure-openai';
    if (family === 'oaic') {
      expect(answer.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
      expect(answer.usage.completion_tokens).toBeGreaterThan(answer.usage.completion_tokens_details.reasoning_tokens);
      if (shown) expect(answer.choices[0].message.reasoning_content).toContain('Why is the sky blue?');
    } else if (family === 'msgc') {
      const thinking = answer.content.find((b: Json) => b.type === 'thinking');
      if (shown) expect(thinking.thinking).toContain('Why is the sky blue?');
      expect(answer.usage.output_tokens).toBeGreaterThan(5);
    } else {
      expect(answer.usageMetadata.thoughtsTokenCount).toBeGreaterThan(0);
      if (shown) expect(answer.candidates[0].content.parts[0]).toEqual(expect.objectContaining({ thought: true }));
    }
    const frames = await streamed(family, protocol, reasoning(family, true));
    expect(streamedText(family, frames)).toBe('You said: Why is the sky blue?');
  });
});

it('asks an Anthropic upstream that thinks for structured output by output_format (a forced tool and thinking do not mix)', async () => {
  const body = {
    model: 'pub',
    max_tokens: 4096,
    reasoning_effort: 'low',
    messages: [{ role: 'user', content: 'Ada Lovelace' }],
    response_format: { type: 'json_schema', json_schema: { name: 'person', schema: PERSON } },
  };
  const ir = fromOaicRequest(parseOrThrow(ChatCompletionRequest, body));
  const call = UPSTREAM_CHAT.anthropic.toRequest(ir, channel('anthropic'));
  const sent = JSON.parse(call.body as string) as Json;
  expect(sent.output_format).toEqual({ type: 'json_schema', schema: PERSON });
  expect(sent.tools).toBeUndefined();
  expect(call.headers['anthropic-beta']).toBe('structured-outputs-2025-11-13');
  const answer = await whole('oaic', 'anthropic', ir);
  expect(JSON.parse(answer.choices[0].message.content)).toEqual({ name: 'Ada Lovelace', age: 1 });
  expect(answer.choices[0].message.reasoning_content).toContain('Ada Lovelace');
});

it('refuses a schema keyword the Gemini dialect cannot hold, naming it and the client field', () => {
  const ir = fromOaicRequest(
    parseOrThrow(ChatCompletionRequest, {
      model: 'pub',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_schema', json_schema: { name: 'p', schema: { type: 'object', patternProperties: { '^x': { type: 'string' } } } } },
    }),
  );
  expect(() => UPSTREAM_CHAT.gemini.toRequest(ir, channel('gemini'))).toThrow(/'patternProperties' at patternProperties/);
  try {
    UPSTREAM_CHAT.gemini.toRequest(ir, channel('gemini'));
  } catch (error) {
    expect((error as { param: string }).param).toBe('response_format');
  }
});

it('sends Gemini a schema it can hold in its own dialect', () => {
  const ir = structured('oaic', false);
  const body = JSON.parse(UPSTREAM_CHAT.gemini.toRequest(ir, channel('gemini')).body as string) as Json;
  expect(body.generationConfig).toEqual({
    responseMimeType: 'application/json',
    responseSchema: { type: 'OBJECT', properties: { name: { type: 'STRING' }, age: { type: 'INTEGER', minimum: 1 } }, required: ['name', 'age'] },
  });
});
