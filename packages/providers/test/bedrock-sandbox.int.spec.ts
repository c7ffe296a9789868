// The Bedrock codec against the real sandbox, started in-process: an IR request becomes a Converse call,
// is signed with the sandbox's test key, and its answer (whole, or an event stream read frame by frame)
// comes back as IR; Bedrock's failures come back as the gateway's errors.
import { ChatCompletionRequest, EmbeddingRequest, GatewayError, parseOrThrow } from '@gateway/contracts';
import { BEDROCK_SANDBOX_REGION, BEDROCK_TEST_ACCESS_KEY_ID, BEDROCK_TEST_SECRET_ACCESS_KEY, buildSandboxApp } from '@gateway/sandbox';
import type { FastifyInstance } from 'fastify';
import {
  anthropicChat,
  bedrockChat,
  type ChannelTarget,
  type ChatIrRequest,
  closeUpstreamConnections,
  fromOaicRequest,
  fromTitanEmbeddings,
  type IrStreamEvent,
  readBedrockEventStream,
  readBodyJson,
  readBodyText,
  sendUpstream,
  signBedrockRequest,
  toTitanEmbedRequests,
  type UpstreamRequest,
  unwrapInvokeChunk,
} from '../src';

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

const signing = { region: BEDROCK_SANDBOX_REGION, credentials: { accessKeyId: BEDROCK_TEST_ACCESS_KEY_ID, secretAccessKey: BEDROCK_TEST_SECRET_ACCESS_KEY } };
const context = { model: 'public-claude', fallbackId: 'fallback-id', estimatedInputTokens: 0 };

function channel(upstreamModel = 'us.anthropic.claude-sonnet-4-20250514-v1:0'): ChannelTarget {
  return { id: 'ch-bedrock', providerId: 'p-bedrock', protocol: 'bedrock', baseUrl: `${base}/bedrock`, apiKey: null, upstreamModel, priority: 0, weight: 1 };
}

function oaic(body: Record<string, unknown>): ChatIrRequest {
  return fromOaicRequest(parseOrThrow(ChatCompletionRequest, { model: 'public-claude', ...body }));
}

async function send(request: UpstreamRequest) {
  return sendUpstream(await signBedrockRequest(request, signing));
}

async function streamEvents(ir: ChatIrRequest, model?: string): Promise<IrStreamEvent[]> {
  const response = await send(bedrockChat.toRequest(ir, channel(model)));
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/vnd.amazon.eventstream');
  const decoder = bedrockChat.streamDecoder(context);
  const events: IrStreamEvent[] = [];
  for await (const message of readBedrockEventStream(response.body)) events.push(...decoder.push(message));
  return [...events, ...decoder.end()];
}

const weather = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('bedrock codec against the sandbox', () => {
  it('sends a signed Converse call and reads the answer into IR', async () => {
    const response = await send(bedrockChat.toRequest(oaic({ messages: [{ role: 'user', content: 'Tell me the plan.' }], max_tokens: 64 }), channel()));
    expect(response.status).toBe(200);
    const answer = bedrockChat.fromResponse(await readBodyJson(response.body), context);
    expect(answer).toEqual({
      id: 'fallback-id',
      model: 'public-claude',
      parts: [{ type: 'text', text: 'You said: Tell me the plan.' }],
      stopReason: 'end_turn',
      stopSequence: null,
      usage: { inputTokens: 5, outputTokens: 8 },
    });
  });

  it('decodes a ConverseStream answer, frame by frame, into IR events', async () => {
    const events = await streamEvents(oaic({ messages: [{ role: 'user', content: 'Tell me the plan.' }], stream: true }));
    expect(events[0]).toEqual({ type: 'start', id: 'fallback-id', model: 'public-claude', inputTokens: null });
    const text = events.filter((event) => event.type === 'text_delta').map((event) => (event as { text: string }).text);
    expect(text.length).toBeGreaterThan(1);
    expect(text.join('')).toBe('You said: Tell me the plan.');
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'end_turn', stopSequence: null, usage: { inputTokens: 5, outputTokens: 8 } });
  });

  it('streams a tool call whose pieces reassemble to the whole call', async () => {
    const ir = oaic({ messages: [{ role: 'user', content: 'Paris' }], tools: [weather], stream: true });
    const events = await streamEvents(ir);
    const start = events.find((event) => event.type === 'tool_call_start');
    expect(start).toMatchObject({ index: 0, name: 'get_weather' });
    const pieces = events.filter((event) => event.type === 'tool_call_delta').map((event) => (event as { arguments: string }).arguments);
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(pieces.join(''))).toEqual({ city: 'Paris' });
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'tool_use' });
  });

  it('reads the prompt cache back as cache reads', async () => {
    const system = `You answer for run ${Date.now()}-${Math.random()}.`;
    const ir = oaic({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'Hi.' },
      ],
    });
    ir.system = ir.system.map((part) => ({ ...part, cache: true }));
    const once = async () => bedrockChat.fromResponse(await readBodyJson((await send(bedrockChat.toRequest(ir, channel()))).body), context).usage;
    const first = await once();
    const second = await once();
    expect(first.cacheWriteTokens).toBeGreaterThan(0);
    expect(second.cacheReadTokens).toBe(first.cacheWriteTokens);
    expect(second.inputTokens).toBe(first.inputTokens);
  });

  it('answers structured output through the answer tool, and through outputConfig while reasoning', async () => {
    const format = {
      type: 'json_schema',
      json_schema: { name: 'trip', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    };
    const answerOf = async (ir: ChatIrRequest) => {
      const response = await send(bedrockChat.toRequest(ir, channel()));
      if (response.status !== 200) throw new Error(await readBodyText(response.body));
      return bedrockChat.fromResponse(await readBodyJson(response.body), { ...context, structuredOutputTool: bedrockChat.structuredOutputTool!(ir) });
    };
    const byTool = await answerOf(oaic({ messages: [{ role: 'user', content: 'Paris' }], response_format: format }));
    expect(byTool.stopReason).toBe('end_turn');
    expect(JSON.parse((byTool.parts[0] as { text: string }).text)).toEqual({ city: expect.any(String) });
    const thinking = await answerOf(
      oaic({ messages: [{ role: 'user', content: 'Paris' }], response_format: format, reasoning_effort: 'low', max_completion_tokens: 4096 }),
    );
    expect(thinking.parts.map((part) => part.type)).toEqual(['reasoning', 'text']);
    expect(JSON.parse((thinking.parts[1] as { text: string }).text)).toEqual({ city: expect.any(String) });
  });

  it('throws a mid-stream exception as the gateway error it stands for', async () => {
    const ir = oaic({ messages: [{ role: 'user', content: 'Tell me the plan.' }], stream: true });
    await expect(streamEvents(ir, 'anthropic.claude-v2@bedrock=stream-error')).rejects.toMatchObject({ code: 'upstream_error', upstreamStatus: 502 });
  });

  it("maps Bedrock's refusals: throttling and not-ready retryable, validation the client's, a bad signature the gateway's", async () => {
    const ir = oaic({ messages: [{ role: 'user', content: 'Hi.' }] });
    const failure = async (request: UpstreamRequest): Promise<GatewayError> => {
      const response = await sendUpstream(request);
      expect(response.status).toBeGreaterThanOrEqual(400);
      return bedrockChat.fromError(response.status, await readBodyText(response.body), {
        headers: response.headers,
        secrets: [BEDROCK_TEST_SECRET_ACCESS_KEY],
      });
    };
    const signed = async (model: string) => signBedrockRequest(bedrockChat.toRequest(ir, channel(model)), signing);
    expect(await failure(await signed('anthropic.claude-v2@fail=429'))).toMatchObject({ code: 'rate_limited', upstreamStatus: 429 });
    expect(await failure(await signed('anthropic.claude-v2@bedrock=not-ready'))).toMatchObject({ code: 'rate_limited', upstreamStatus: 429 });
    expect(await failure(await signed('anthropic.claude-v2@fail=503'))).toMatchObject({ code: 'upstream_error', upstreamStatus: 503 });
    const invalid = await failure(await signed('not-a-model'));
    expect(invalid).toMatchObject({ code: 'invalid_request', upstreamStatus: 400 });
    expect(invalid.message).toContain('ValidationException');
    const wrongKey = await signBedrockRequest(bedrockChat.toRequest(ir, channel()), {
      ...signing,
      credentials: { ...signing.credentials, secretAccessKey: 'wrong' },
    });
    const refused = await failure(wrongKey);
    expect(refused.code).toBe('upstream_error');
    expect(refused.message).toContain('InvalidSignatureException');
    expect(refused.message).not.toContain(BEDROCK_TEST_SECRET_ACCESS_KEY);
  });

  it("streams Claude's Messages events through InvokeModel, read by the Anthropic decoder", async () => {
    const url = `${base}/bedrock/model/${encodeURIComponent('anthropic.claude-sonnet-4-20250514-v1:0')}/invoke-with-response-stream`;
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'Tell me the plan.' }] });
    const response = await send({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' },
      body,
      stream: true,
    });
    expect(response.status).toBe(200);
    const decoder = anthropicChat.streamDecoder(context);
    const events: IrStreamEvent[] = [];
    for await (const message of readBedrockEventStream(response.body)) events.push(...decoder.push(unwrapInvokeChunk(message)));
    const text = events.filter((event) => event.type === 'text_delta').map((event) => (event as { text: string }).text);
    expect(text.join('')).toBe('You said: Tell me the plan.');
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'end_turn', stopSequence: null, usage: { inputTokens: 5, outputTokens: 8 } });
  });

  it('embeds through Titan and answers an oaic list', async () => {
    const request = parseOrThrow(EmbeddingRequest, { model: 'public-embed', input: ['one fox', 'two foxes'], dimensions: 256 });
    const bodies: unknown[] = [];
    for (const call of toTitanEmbedRequests(request, channel('amazon.titan-embed-text-v2:0'))) bodies.push(await readBodyJson((await send(call)).body));
    const answer = fromTitanEmbeddings(bodies, request, 'public-embed');
    expect(answer.data.map((item) => (item.embedding as number[]).length)).toEqual([256, 256]);
    expect(answer.usage).toEqual({ prompt_tokens: 4, total_tokens: 4 });
  });
});
