// The OpenAI adapter and upstream client against the real sandbox upstream, started in-process.
import { Readable } from 'node:stream';
import { GatewayError } from '@gateway/contracts';
import { buildSandboxApp, type StatsSnapshot } from '@gateway/sandbox';
import type { FastifyInstance } from 'fastify';
import {
  type ChannelTarget,
  ChatStreamAccumulator,
  closeUpstreamConnections,
  executeWithFailover,
  fromUpstream,
  fromUpstreamError,
  parseChatStream,
  readBodyBuffer,
  readBodyJson,
  readBodyText,
  sendUpstream,
  toUpstream,
  type UpstreamResponse,
} from '../src';

let app: FastifyInstance;
let base: string;

const channel = (upstreamModel: string, overrides: Partial<ChannelTarget> = {}): ChannelTarget => ({
  id: `ch-${upstreamModel}`,
  providerId: 'sandbox-openai',
  protocol: 'openai',
  baseUrl: `${base}/openai/v1`,
  apiKey: 'sk-sandbox-upstream',
  upstreamModel,
  priority: 0,
  weight: 1,
  ...overrides,
});

const chatBody = (content: string, extra: Record<string, unknown> = {}) => ({ model: 'public-gpt', messages: [{ role: 'user', content }], ...extra });
const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

async function stats(): Promise<StatsSnapshot> {
  return (await (await fetch(`${base}/_sandbox/stats`)).json()) as StatsSnapshot;
}

/** Waits until the sandbox has recorded `count` chat calls with `outcome` (it learns of a closed socket a moment later). */
async function chatOutcome(outcome: string, count: number): Promise<number | undefined> {
  for (let i = 0; i < 50; i++) {
    const seen = (await stats()).routes['POST /openai/v1/chat/completions']?.[outcome];
    if (seen === count) return seen;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (await stats()).routes['POST /openai/v1/chat/completions']?.[outcome];
}

/** Runs the adapter and client the way the chat service does, with failover and error mapping. */
function attemptWith(body: Record<string, unknown>, stream: boolean, firstByteTimeoutMs = 2000) {
  return (target: ChannelTarget): Promise<UpstreamResponse> => sendUpstream(toUpstream('chat', body, target, { stream }), { firstByteTimeoutMs });
}
const toError = (status: number, text: string, target: ChannelTarget, headers: UpstreamResponse['headers']) =>
  fromUpstreamError(status, text, { headers, secrets: [target.apiKey] });

beforeAll(async () => {
  ({ app } = await buildSandboxApp());
  base = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await closeUpstreamConnections();
  await app.close();
});

beforeEach(async () => {
  await fetch(`${base}/_sandbox/stats/reset`, { method: 'POST' });
});

describe('OpenAI adapter against the sandbox', () => {
  it('round-trips a chat with the upstream key and the public model id', async () => {
    const response = await sendUpstream(toUpstream('chat', chatBody('Hello, sandbox'), channel('sandbox-gpt'), { stream: false }));
    expect(response.status).toBe(200);
    const body = fromUpstream('chat', await readBodyJson(response.body), 'public-gpt') as { model: string; choices: { message: { content: string } }[] };
    expect(body.model).toBe('public-gpt');
    expect(body.choices[0]!.message.content).toBe('You said: Hello, sandbox');
    expect((await stats()).authKeys).toEqual({ 'sk-sandbox-upstream': 1 });
  });

  it('streams chunks whose deltas join to the non-stream answer, ending with usage', async () => {
    const plain = await sendUpstream(toUpstream('chat', chatBody('stream me please'), channel('sandbox-gpt'), { stream: false }));
    const expected = (await readBodyJson(plain.body)) as { choices: { message: { content: string } }[]; usage: Record<string, number> };
    const streamed = await sendUpstream(toUpstream('chat', chatBody('stream me please', { stream: true }), channel('sandbox-gpt'), { stream: true }));
    expect(streamed.headers['content-type']).toContain('text/event-stream');
    const accumulator = new ChatStreamAccumulator();
    for await (const chunk of parseChatStream(streamed.body)) accumulator.push(chunk);
    const result = accumulator.result();
    expect(result.content).toBe(expected.choices[0]!.message.content);
    expect(result.usage).toEqual({
      promptTokens: expected.usage.prompt_tokens,
      completionTokens: expected.usage.completion_tokens,
      totalTokens: expected.usage.total_tokens,
    });
  });

  it('reassembles streamed tool-call deltas into the non-stream tool call', async () => {
    const body = chatBody('Bergen', { tools: [weatherTool] });
    const plain = (await readBodyJson((await sendUpstream(toUpstream('chat', body, channel('sandbox-gpt'), { stream: false }))).body)) as {
      choices: { message: { tool_calls: unknown[] } }[];
    };
    const accumulator = new ChatStreamAccumulator();
    const streamed = await sendUpstream(toUpstream('chat', { ...body, stream: true }, channel('sandbox-gpt'), { stream: true }));
    for await (const chunk of parseChatStream(streamed.body)) accumulator.push(chunk);
    expect(accumulator.result().chunks).toBeGreaterThan(4);
    expect(accumulator.result().toolCalls).toEqual(plain.choices[0]!.message.tool_calls);
    expect(accumulator.result().finishReason).toBe('tool_calls');
  });

  it('gets embeddings of the requested dimensions, speech bytes and a multipart transcription', async () => {
    const embeddings = await sendUpstream(
      toUpstream('embeddings', { model: 'e', input: ['a', 'b', 'c'], dimensions: 32, encoding_format: 'float' }, channel('sandbox-embedding'), {
        stream: false,
      }),
    );
    const list = fromUpstream('embeddings', await readBodyJson(embeddings.body), 'public-embedding') as { data: { embedding: number[] }[]; model: string };
    expect(list.data.map((item) => item.embedding.length)).toEqual([32, 32, 32]);
    expect(list.model).toBe('public-embedding');

    const speech = await sendUpstream(toUpstream('speech', { model: 't', input: 'hello', voice: 'alloy' }, channel('sandbox-tts'), { stream: false }));
    expect(speech.headers['content-type']).toBe('audio/wav');
    const audio = await readBodyBuffer(speech.body);
    expect(audio.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(audio.readUInt32LE(40)).toBe(audio.length - 44);

    const file = { filename: 'clip.wav', contentType: 'audio/wav', data: Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(600, 2)]) };
    const transcription = await sendUpstream(toUpstream('transcriptions', { model: 'w', language: 'en' }, channel('sandbox-whisper'), { stream: false, file }));
    expect(transcription.status).toBe(200);
    expect(fromUpstream('transcriptions', await readBodyJson(transcription.body), 'public-whisper')).toMatchObject({
      text: 'Transcribed clip.wav (1600 bytes).',
    });
  });

  it('maps an upstream validation error and a refused upstream key without leaking it', async () => {
    const bad = await sendUpstream(toUpstream('chat', { model: 'x' }, channel('sandbox-gpt'), { stream: false }));
    expect(fromUpstreamError(bad.status, await readBodyText(bad.body))).toMatchObject({ code: 'invalid_request', param: 'messages', upstreamStatus: 400 });
    const keyless = await sendUpstream(toUpstream('chat', chatBody('x'), channel('sandbox-gpt', { apiKey: null }), { stream: false }));
    expect(keyless.status).toBe(401);
    const error = fromUpstreamError(keyless.status, await readBodyText(keyless.body));
    expect(error).toMatchObject({ code: 'upstream_error', upstreamStatus: null });
  });
});

describe('failover, timeouts and cancellation against the sandbox', () => {
  it('fails over from a 429 and a 500 to a working channel', async () => {
    const channels = [channel('sandbox-gpt@fail=429'), channel('sandbox-gpt@fail=500'), channel('sandbox-gpt')];
    const result = await executeWithFailover(channels, attemptWith(chatBody('retry me'), false), { toError });
    expect(result.channel.upstreamModel).toBe('sandbox-gpt');
    expect(result.attempts.map((attempt) => attempt.status)).toEqual([429, 500, 200]);
    expect(((await readBodyJson(result.response.body)) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
      'You said: retry me',
    );
    expect((await stats()).routes['POST /openai/v1/chat/completions']).toEqual({ status_429: 1, status_500: 1, ok: 1 });
  });

  it('fails over from a refused connection and a cut connection', async () => {
    const closed = channel('sandbox-gpt', { id: 'closed', baseUrl: 'http://127.0.0.1:1/openai/v1' });
    const result = await executeWithFailover([closed, channel('sandbox-gpt@fail=cut'), channel('sandbox-gpt')], attemptWith(chatBody('hi'), false), {
      toError,
    });
    expect(result.attempts.map((attempt) => attempt.status ?? attempt.error)).toEqual(['upstream_error', 'upstream_error', 200]);
    await readBodyText(result.response.body);
  });

  it('gives the upstream status and message when every channel fails, without hanging', async () => {
    const run = executeWithFailover([channel('sandbox-gpt@fail=500'), channel('sandbox-gpt@fail=503')], attemptWith(chatBody('x'), true), { toError });
    await expect(run).rejects.toMatchObject({ code: 'upstream_error', upstreamStatus: 503, message: expect.stringContaining('overloaded') });
  });

  it('times out a hung upstream at the first-byte deadline, then tries the next channel', async () => {
    const started = performance.now();
    const result = await executeWithFailover([channel('sandbox-gpt@fail=hang'), channel('sandbox-gpt')], attemptWith(chatBody('x'), false, 200), { toError });
    const elapsed = performance.now() - started;
    expect(result.attempts.map((attempt) => attempt.status ?? attempt.error)).toEqual(['upstream_timeout', 200]);
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(2000);
    await readBodyText(result.response.body);
  });

  it('applies an overall deadline', async () => {
    const req = toUpstream('chat', chatBody('x'), channel('sandbox-gpt@latency=1000'), { stream: false });
    await expect(sendUpstream(req, { timeoutMs: 100 })).rejects.toMatchObject({ code: 'upstream_timeout' });
    expect(await chatOutcome('aborted', 1)).toBe(1);
  });

  it('cancels a waiting call and a flowing stream when the caller aborts', async () => {
    const waiting = new AbortController();
    const started = performance.now();
    const pending = sendUpstream(toUpstream('chat', chatBody('x'), channel('sandbox-gpt@latency=3000'), { stream: false }), { signal: waiting.signal });
    setTimeout(() => waiting.abort(), 50);
    await expect(pending).rejects.toBeInstanceOf(GatewayError);
    expect(performance.now() - started).toBeLessThan(1000);

    const flowing = new AbortController();
    const response = await sendUpstream(
      toUpstream('chat', chatBody('one two three four five six', { stream: true }), channel('sandbox-gpt@chunk=50'), { stream: true }),
      {
        signal: flowing.signal,
      },
    );
    const seen: string[] = [];
    const consume = async () => {
      for await (const chunk of parseChatStream(response.body)) {
        seen.push(chunk.id);
        if (seen.length === 2) flowing.abort();
      }
    };
    await expect(consume()).rejects.toThrow();
    expect(seen).toHaveLength(2);
    // The sandbox sees both calls end before their answers completed.
    expect(await chatOutcome('aborted', 2)).toBe(2);
  });
});
