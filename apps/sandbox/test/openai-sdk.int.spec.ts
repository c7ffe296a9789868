// Drives the sandbox with the official openai SDK, as a gateway's upstream client would see it.
import OpenAI, { toFile } from 'openai';
import { buildWav } from '../src/core/media.builder';
import { sandboxOpenAI } from './support/sandbox-openai';

const sandbox = sandboxOpenAI();

const weatherTool: OpenAI.Chat.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

describe('sandbox OpenAI protocol via the openai SDK', () => {
  it('lists the sandbox models', async () => {
    const ids = [];
    for await (const model of sandbox.client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['sandbox-gpt', 'sandbox-embedding', 'sandbox-whisper']));
  });

  it('answers a chat and streams exactly the same text, with a final usage chunk', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Tell me, what is the plan?' }];
    const completion = await sandbox.client.chat.completions.create({ model: 'sandbox-gpt', messages });
    expect(completion.choices[0]!.message.content).toBe('You said: Tell me, what is the plan?');
    expect(completion.usage).toEqual({ prompt_tokens: 11, completion_tokens: 11, total_tokens: 22 });

    const stream = await sandbox.client.chat.completions.create({ model: 'sandbox-gpt', messages, stream: true, stream_options: { include_usage: true } });
    let joined = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      joined += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(joined).toBe(completion.choices[0]!.message.content);
    expect(finish).toBe('stop');
    expect(usage).toEqual(completion.usage);
  });

  it('round-trips a tool call, streamed and not, then answers the tool result', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Oslo' }];
    const first = await sandbox.client.chat.completions.create({ model: 'sandbox-gpt', messages, tools: [weatherTool] });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Oslo' });

    const stream = sandbox.client.chat.completions.stream({ model: 'sandbox-gpt', messages, tools: [weatherTool] });
    const streamed = await stream.finalChatCompletion();
    expect(streamed.choices[0]!.message.tool_calls).toEqual([call]);

    const answer = await sandbox.client.chat.completions.create({
      model: 'sandbox-gpt',
      tools: [weatherTool],
      messages: [...messages, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: 'Sunny, 18C' }],
    });
    expect(answer.choices[0]!.message.content).toBe('The get_weather tool returned: Sunny, 18C');
  });

  it('serves completions and responses (created, streamed, retrieved)', async () => {
    const completion = await sandbox.client.completions.create({ model: 'sandbox-gpt', prompt: 'hi there', max_tokens: 50 });
    expect(completion.choices[0]!.text).toBe('You said: hi there');

    const created = await sandbox.client.responses.create({ model: 'sandbox-gpt', input: 'What time is it?' });
    expect(created.output_text).toBe('You said: What time is it?');
    const fetched = await sandbox.client.responses.retrieve(created.id);
    expect(fetched.id).toBe(created.id);
    expect(fetched.output_text).toBe(created.output_text);

    const events: string[] = [];
    let deltas = '';
    for await (const event of await sandbox.client.responses.create({ model: 'sandbox-gpt', input: 'stream this', stream: true })) {
      events.push(event.type);
      if (event.type === 'response.output_text.delta') deltas += event.delta;
    }
    expect(deltas).toBe('You said: stream this');
    expect(events[0]).toBe('response.created');
    expect(events[events.length - 1]).toBe('response.completed');
  });

  it('embeds arrays at the requested dimensions in both encodings', async () => {
    const viaBase64 = await sandbox.client.embeddings.create({ model: 'sandbox-embedding', input: ['alpha', 'beta'], dimensions: 16 });
    const viaFloat = await sandbox.client.embeddings.create({ model: 'sandbox-embedding', input: ['alpha', 'beta'], dimensions: 16, encoding_format: 'float' });
    expect(viaBase64.data).toHaveLength(2);
    expect(viaBase64.data[0]!.embedding).toHaveLength(16);
    expect(viaBase64.data[1]!.embedding).toEqual(viaFloat.data[1]!.embedding);
    expect(viaFloat.usage.prompt_tokens).toBe(2);
  });

  it('moderates, draws a PNG (inline and by URL) and speaks WAV', async () => {
    const moderation = await sandbox.client.moderations.create({ model: 'sandbox-moderation', input: 'I will attack' });
    expect(moderation.results[0]!.flagged).toBe(true);

    const inline = await sandbox.client.images.generate({ model: 'sandbox-image', prompt: 'a red square', response_format: 'b64_json' });
    expect(Buffer.from(inline.data![0]!.b64_json!, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');
    const linked = await sandbox.client.images.generate({ model: 'sandbox-image', prompt: 'a red square', response_format: 'url' });
    const download = await fetch(linked.data![0]!.url!);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(Buffer.from(inline.data![0]!.b64_json!, 'base64'));

    const speech = await sandbox.client.audio.speech.create({ model: 'sandbox-tts', input: 'Hello from the sandbox', voice: 'alloy', response_format: 'wav' });
    expect(speech.headers.get('content-type')).toBe('audio/wav');
    const audio = Buffer.from(await speech.arrayBuffer());
    expect(audio.toString('ascii', 0, 4)).toBe('RIFF');
  });

  it('transcribes and translates a small WAV upload', async () => {
    const wav = buildWav('test tone', 1);
    const transcript = await sandbox.client.audio.transcriptions.create({
      model: 'sandbox-whisper',
      file: await toFile(wav, 'tone.wav', { type: 'audio/wav' }),
    });
    expect(transcript.text).toBe(`Transcribed tone.wav (${wav.length} bytes).`);
    const translation = await sandbox.client.audio.translations.create({
      model: 'sandbox-whisper',
      file: await toFile(wav, 'tone.wav', { type: 'audio/wav' }),
      response_format: 'text',
    });
    expect(String(translation).trim()).toBe(`Translated tone.wav (${wav.length} bytes).`);
  });

  it('rejects bad input in the OpenAI dialect', async () => {
    const missingMessages = sandbox.client.chat.completions.create({ model: 'sandbox-gpt' } as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    await expect(missingMessages).rejects.toMatchObject({ status: 400, param: 'messages', code: 'missing_required_parameter' });
    const missingModel = sandbox.client.chat.completions.create({
      messages: [{ role: 'user', content: 'x' }],
    } as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
    await expect(missingModel).rejects.toBeInstanceOf(OpenAI.BadRequestError);

    const anonymous = await fetch(`${sandbox.base}/openai/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });
});

describe('sandbox controls via the openai SDK', () => {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'ping' }];

  it('fails on demand by header or by model suffix', async () => {
    await expect(sandbox.client.chat.completions.create({ model: 'sandbox-gpt', messages }, { headers: { 'x-sandbox-fail': '500' } })).rejects.toBeInstanceOf(
      OpenAI.InternalServerError,
    );
    await expect(sandbox.client.chat.completions.create({ model: 'sandbox-gpt@fail=429', messages })).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await expect(sandbox.client.chat.completions.create({ model: 'sandbox-gpt@fail=503', messages })).rejects.toMatchObject({ status: 503 });
  });

  it('delays the first byte and the chunks', async () => {
    const started = performance.now();
    await sandbox.client.chat.completions.create({ model: 'sandbox-gpt@latency=120', messages });
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);

    const streamStarted = performance.now();
    const stream = await sandbox.client.chat.completions.create(
      { model: 'sandbox-gpt', messages, stream: true },
      { headers: { 'x-sandbox-chunk-delay-ms': '30' } },
    );
    let chunks = 0;
    for await (const _chunk of stream) chunks += 1;
    expect(chunks).toBe(6);
    expect(performance.now() - streamStarted).toBeGreaterThanOrEqual((chunks - 1) * 30 - 5);
  });

  it('cuts a stream after two chunks', async () => {
    const stream = await sandbox.client.chat.completions.create({
      model: 'sandbox-gpt@fail=cut',
      messages: [{ role: 'user', content: 'a longer prompt here' }],
      stream: true,
    });
    const seen: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) seen.push(chunk.id);
    };
    await expect(consume()).rejects.toThrow();
    expect(seen).toHaveLength(2);
  });

  it('hangs until the client gives up, and counts every outcome', async () => {
    await fetch(`${sandbox.base}/_sandbox/stats/reset`, { method: 'POST' });
    const impatient = new OpenAI({ apiKey: 'sk-other', baseURL: `${sandbox.base}/openai/v1`, maxRetries: 0, timeout: 300 });
    const started = performance.now();
    // Under jest the SDK reports its own timeout as a plain connection error (a cross-realm AbortError).
    await expect(impatient.chat.completions.create({ model: 'sandbox-gpt', messages }, { headers: { 'x-sandbox-fail': 'hang' } })).rejects.toBeInstanceOf(
      OpenAI.APIConnectionError,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    const echoed = await sandbox.client.chat.completions.create({ model: 'sandbox-gpt', messages }, { headers: { 'x-request-id': 'req-123' } }).withResponse();
    expect(echoed.response.headers.get('x-request-id')).toBe('req-123');

    const stats = (await (await fetch(`${sandbox.base}/_sandbox/stats`)).json()) as {
      routes: Record<string, Record<string, number>>;
      authKeys: Record<string, number>;
      total: number;
    };
    expect(stats.routes['POST /openai/v1/chat/completions']).toEqual({ hang: 1, ok: 1 });
    expect(stats.authKeys).toEqual({ 'sk-other': 1, 'sk-test-upstream': 1 });
  });
});
