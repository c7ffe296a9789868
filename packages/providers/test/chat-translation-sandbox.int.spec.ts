// The translation layer against the real sandbox upstreams (Anthropic, Gemini, OpenAI protocols), started
// in-process: every public family reaches every protocol, whole and streamed, tool calls included.
import { ChatCompletionRequest, GenerateContentRequest, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import { buildSandboxApp } from '@gateway/sandbox';
import type { FastifyInstance } from 'fastify';
import {
  type ChannelTarget,
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
  readBodyText,
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

function channel(protocol: ChatProtocol, upstreamModel = MODEL[protocol]): ChannelTarget {
  return {
    id: `ch-${protocol}`,
    providerId: `sandbox-${protocol}`,
    protocol,
    baseUrl: `${base}${PREFIX[protocol]}`,
    apiKey: 'sandbox-key',
    upstreamModel,
    priority: 0,
    weight: 1,
    ...(protocol === 'azure-openai' ? AZURE : {}),
  };
}

const properties = { city: { type: 'string' } };

function request(family: IrFamily, text: string, stream: boolean, tools: boolean): ChatIrRequest {
  if (family === 'oaic') {
    const body = {
      model: 'pub',
      stream,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: text },
      ],
      ...(tools ? { tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties } } }] } : {}),
    };
    return fromOaicRequest(parseOrThrow(ChatCompletionRequest, body));
  }
  if (family === 'msgc') {
    const body = {
      model: 'pub',
      max_tokens: 64,
      stream,
      system: 'Be brief.',
      messages: [{ role: 'user', content: text }],
      ...(tools ? { tools: [{ name: 'get_weather', input_schema: { type: 'object', properties } }] } : {}),
    };
    return fromMsgcRequest(parseOrThrow(MessagesRequest, body));
  }
  const body = {
    systemInstruction: { parts: [{ text: 'Be brief.' }] },
    contents: [{ role: 'user', parts: [{ text }] }],
    ...(tools ? { tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'object', properties } }] }] } : {}),
  };
  return fromGencRequest(parseOrThrow(GenerateContentRequest, body), 'pub', stream);
}

async function whole(family: IrFamily, protocol: ChatProtocol, ir: ChatIrRequest): Promise<Record<string, unknown>> {
  const response = await sendUpstream(UPSTREAM_CHAT[protocol].toRequest(ir, channel(protocol)));
  expect(response.status).toBe(200);
  const context = { model: 'pub', fallbackId: 'id', estimatedInputTokens: countTokens(ir) };
  return FAMILY_CHAT[family].toResponse(UPSTREAM_CHAT[protocol].fromResponse(await readBodyJson(response.body), context)) as Record<string, unknown>;
}

async function streamed(family: IrFamily, protocol: ChatProtocol, ir: ChatIrRequest): Promise<string> {
  const response = await sendUpstream(UPSTREAM_CHAT[protocol].toRequest(ir, channel(protocol)));
  expect(response.status).toBe(200);
  const decoder = UPSTREAM_CHAT[protocol].streamDecoder({ model: 'pub', fallbackId: 'id', estimatedInputTokens: countTokens(ir) });
  const encoder = FAMILY_CHAT[family].streamEncoder('id', 'pub');
  let out = '';
  for await (const message of parseSse(response.body)) for (const event of decoder.push(message)) out += encoder.push(event);
  for (const event of decoder.end()) out += encoder.push(event);
  return out + encoder.end();
}

// Reassembly walks arbitrary JSON frames; typing every path would only restate the expectations.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type Json = Record<string, any>;

/** The text and tool-call arguments a client of `family` reassembles from a translated stream. */
function reassemble(family: IrFamily, sse: string): { text: string; args: string; usage: unknown } {
  const frames = readSse(sse).filter((frame) => frame.data !== '[DONE]');
  const bodies = frames.map((frame) => JSON.parse(frame.data) as Json);
  if (family === 'oaic') {
    const deltas = bodies.map((b) => b.choices[0]?.delta ?? {});
    return {
      text: deltas.map((d) => d.content ?? '').join(''),
      args: deltas
        .flatMap((d) => d.tool_calls ?? [])
        .map((t) => t.function.arguments ?? '')
        .join(''),
      usage: bodies[bodies.length - 1]!.usage,
    };
  }
  if (family === 'msgc') {
    const deltas = bodies.filter((b) => b.type === 'content_block_delta').map((b) => b.delta);
    return {
      text: deltas.map((d) => d.text ?? '').join(''),
      args: deltas.map((d) => d.partial_json ?? '').join(''),
      usage: bodies.find((b) => b.type === 'message_delta')!.usage,
    };
  }
  const parts = bodies.flatMap((b) => b.candidates[0].content.parts);
  return {
    text: parts.map((p) => p.text ?? '').join(''),
    args: parts
      .filter((p) => p.functionCall)
      .map((p) => JSON.stringify(p.functionCall.args))
      .join(''),
    usage: bodies[bodies.length - 1]!.usageMetadata,
  };
}

const PAIRS = (['oaic', 'msgc', 'genc'] as const).flatMap((family) =>
  (['openai', 'anthropic', 'gemini', 'azure-openai'] as const).map((protocol) => [family, protocol] as const),
);

describe.each(PAIRS)('%s client → %s sandbox', (family, protocol) => {
  it('answers whole, and streams the same text with usage at the end', async () => {
    const answer = JSON.stringify(await whole(family, protocol, request(family, 'Tell me the plan.', false, false)));
    expect(answer).toContain('You said: Tell me the plan.');
    const { text, usage } = reassemble(family, await streamed(family, protocol, request(family, 'Tell me the plan.', true, false)));
    expect(text).toBe('You said: Tell me the plan.');
    expect(usage).toBeTruthy();
    expect(JSON.stringify(usage)).toMatch(/[1-9]/);
  });

  it('streams a tool call whose arguments arrive whole', async () => {
    const { args } = reassemble(family, await streamed(family, protocol, request(family, 'Paris', true, true)));
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
  });
});

it('reads an upstream error in its own dialect', async () => {
  const ir = request('oaic', 'x', false, false);
  for (const protocol of ['anthropic', 'gemini'] as const) {
    const response = await sendUpstream(UPSTREAM_CHAT[protocol].toRequest(ir, channel(protocol, `${MODEL[protocol]}@fail=429`)));
    const error = UPSTREAM_CHAT[protocol].fromError(response.status, await readBodyText(response.body), { headers: response.headers });
    expect(error.code).toBe('rate_limited');
    expect(error.message).toContain('sandbox fail=429');
  }
});
