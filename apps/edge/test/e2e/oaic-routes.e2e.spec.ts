/** The other oaic routes through the running gateway with the official openai SDK: completions, responses, embeddings, moderations, images, audio. */
import OpenAI, { toFile } from 'openai';
import { baseUrl, bearer, createTenantWithKey, http, openaiClient, type TenantWithKey } from './support/gateway';
import { wavTone } from './support/oaic-fixtures';

describe('oaic routes', () => {
  let tenant: TenantWithKey;
  let other: TenantWithKey;
  let client: OpenAI;
  let alias: OpenAI;

  beforeAll(async () => {
    [tenant, other] = await Promise.all([createTenantWithKey({ label: 'routes' }), createTenantWithKey({ label: 'routes-other' })]);
    client = openaiClient(tenant.key);
    alias = new OpenAI({ apiKey: tenant.key, baseURL: `${baseUrl()}/v1`, maxRetries: 0 });
  });

  it('completions, prefixed and under /v1', async () => {
    for (const sdk of [client, alias]) {
      const completion = await sdk.completions.create({ model: 'sandbox-gpt', prompt: 'Say something' });
      expect(completion.object).toBe('text_completion');
      expect(completion.choices[0]!.index).toBe(0);
      expect(completion.choices[0]!.text).toContain('Say something');
    }
  });

  it('streams completions', async () => {
    const whole = await client.completions.create({ model: 'sandbox-gpt', prompt: 'Stream this' });
    let joined = '';
    for await (const chunk of await client.completions.create({ model: 'sandbox-gpt', prompt: 'Stream this', stream: true }))
      joined += chunk.choices[0]?.text ?? '';
    expect(joined).toBe(whole.choices[0]!.text);
  });

  it('creates a response, retrieves it, and hides it from another tenant', async () => {
    const created = await client.responses.create({ model: 'sandbox-gpt', input: 'Remember this' });
    expect(created.object).toBe('response');
    expect(created.status).toBe('completed');
    expect(created.output_text).toContain('Remember this');
    const fetched = await client.responses.retrieve(created.id);
    expect(fetched.id).toBe(created.id);
    expect(fetched.output_text).toBe(created.output_text);
    const viaAlias = await alias.responses.retrieve(created.id);
    expect(viaAlias.id).toBe(created.id);
    const foreign = await openaiClient(other.key)
      .responses.retrieve(created.id)
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(OpenAI.NotFoundError);
    const unknown = await client.responses.retrieve('resp_doesnotexist').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('stores a response whose input carries NUL or a lone surrogate (cleaned for storage), rather than failing with a 500', async () => {
    for (const input of ['a\u0000b', '\ud83d']) {
      const created = await client.responses.create({ model: 'sandbox-gpt', input, max_output_tokens: 16 });
      expect(created.status).toBe('completed');
      const fetched = await client.responses.retrieve(created.id);
      expect(fetched.id).toBe(created.id);
      expect(JSON.stringify(fetched)).not.toContain('\\u0000');
    }
  });

  it('streams a response and stores it for retrieval', async () => {
    const events: string[] = [];
    let text = '';
    let responseId = '';
    for await (const event of await client.responses.create({ model: 'sandbox-gpt', input: 'Stream a response', stream: true })) {
      events.push(event.type);
      if (event.type === 'response.created') responseId = event.response.id;
      if (event.type === 'response.completed') expect(event.response.id).toBe(responseId);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(events[0]).toBe('response.created');
    expect(events).toContain('response.completed');
    expect(text).toContain('Stream a response');
    expect(responseId).toMatch(/^resp_/);
    const stored = await client.responses.retrieve(responseId);
    expect(stored.output_text).toBe(text);
    await expect(openaiClient(other.key).responses.retrieve(responseId)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('continues a response by previous_response_id on the upstream that answered it, and not across tenants', async () => {
    const first = await client.responses.create({ model: 'sandbox-gpt', input: 'First turn' });
    const next = await client.responses.create({ model: 'sandbox-gpt', input: 'Second turn', previous_response_id: first.id });
    expect(next.status).toBe('completed');
    expect(next.output_text).toContain('Second turn');
    expect(next.id).not.toBe(first.id);

    let streamedId: string | undefined;
    for await (const event of await client.responses.create({ model: 'sandbox-gpt', input: 'Streamed turn', stream: true })) {
      if (event.type === 'response.completed') streamedId = event.response.id;
    }
    const afterStream = await client.responses.create({ model: 'sandbox-gpt', input: 'After the stream', previous_response_id: streamedId! });
    expect(afterStream.status).toBe('completed');

    const foreign = await openaiClient(other.key)
      .responses.create({ model: 'sandbox-gpt', input: 'x', previous_response_id: first.id })
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(OpenAI.NotFoundError);
    expect((foreign as InstanceType<typeof OpenAI.NotFoundError>).param).toBe('previous_response_id');

    const throughChat = await client.responses.create({ model: 'sandbox-claude', input: 'x' });
    const unchainable = await client.responses.create({ model: 'sandbox-gpt', input: 'y', previous_response_id: throughChat.id }).catch((e: unknown) => e);
    expect(unchainable).toBeInstanceOf(OpenAI.BadRequestError);
    expect((unchainable as Error).message).toContain('answered through chat');
  });

  it('embeddings with array input and dimensions, prefixed and under /v1', async () => {
    for (const sdk of [client, alias]) {
      const result = await sdk.embeddings.create({ model: 'sandbox-embedding', input: ['first text', 'second text'], dimensions: 8 });
      expect(result.object).toBe('list');
      expect(result.model).toBe('sandbox-embedding');
      expect(result.data.map((d) => d.index)).toEqual([0, 1]);
      for (const item of result.data) expect(item.embedding).toHaveLength(8);
      expect(result.data[0]!.embedding).not.toEqual(result.data[1]!.embedding);
      expect(result.usage.total_tokens).toBeGreaterThan(0);
    }
  });

  it('moderations, prefixed and under /v1', async () => {
    for (const sdk of [client, alias]) {
      const result = await sdk.moderations.create({ model: 'sandbox-moderation', input: 'a friendly sentence' });
      expect(result.id).toEqual(expect.any(String));
      expect(result.model).toEqual(expect.any(String));
      expect(typeof result.results[0]!.flagged).toBe('boolean');
      expect(result.results[0]!.categories).toEqual(expect.any(Object));
      expect(result.results[0]!.category_scores).toEqual(expect.any(Object));
    }
  });

  it('image generation returns a PNG', async () => {
    const result = await client.images.generate({ model: 'sandbox-image', prompt: 'a lighthouse', size: '256x256', response_format: 'b64_json' });
    const png = Buffer.from(result.data![0]!.b64_json!, 'base64');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('speech streams back audio bytes with an audio content type', async () => {
    const response = await client.audio.speech.create({ model: 'sandbox-tts', input: 'Hello from the gateway', voice: 'alloy', response_format: 'wav' });
    expect(response.headers.get('content-type')).toMatch(/^audio\//);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('ascii')).toBe('WAVE');
  });

  it('transcribes and translates a small WAV upload', async () => {
    const wav = wavTone();
    const transcription = await client.audio.transcriptions.create({ model: 'sandbox-whisper', file: await toFile(wav, 'tone.wav', { type: 'audio/wav' }) });
    expect(transcription.text).toContain(`${wav.length} bytes`);
    const translation = await client.audio.translations.create({ model: 'sandbox-whisper', file: await toFile(wav, 'tone.wav', { type: 'audio/wav' }) });
    expect(translation.text).toContain(`${wav.length} bytes`);
    const plain = await client.audio.transcriptions.create({ model: 'sandbox-whisper', file: await toFile(wav, 'tone.wav'), response_format: 'text' });
    expect(String(plain)).toContain('tone.wav');
  });

  it('refuses an upload without a file or a model, naming the field', async () => {
    const noModel = await client.audio.transcriptions.create({ file: await toFile(wavTone(), 'x.wav') } as never).catch((e: unknown) => e);
    expect(noModel).toBeInstanceOf(OpenAI.BadRequestError);
    expect((noModel as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('model');
    const form = new FormData();
    form.set('model', 'sandbox-whisper');
    const response = await fetch(`${baseUrl()}/oaic/v1/audio/transcriptions`, { method: 'POST', headers: bearer(tenant.key), body: form });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe('file');
  });

  it('answers an upload whose multipart body ends before its closing boundary with a 400, at once', async () => {
    const body =
      '--b\r\ncontent-disposition: form-data; name="model"\r\n\r\nsandbox-whisper\r\n' +
      '--b\r\ncontent-disposition: form-data; name="file"; filename="a.wav"\r\ncontent-type: audio/wav\r\n\r\nabc\r\n';
    const response = await fetch(`${baseUrl()}/oaic/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { ...bearer(tenant.key), 'content-type': 'multipart/form-data; boundary=b' },
      body,
      signal: AbortSignal.timeout(5000),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { param: string; message: string; type: string } };
    expect(error).toMatchObject({ param: 'file', type: 'invalid_request_error' });
    expect(error.message).toContain('multipart/form-data body could not be read');
  });

  it('refuses a model of the wrong kind for the route', async () => {
    const error = await client.embeddings.create({ model: 'sandbox-gpt', input: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('model');
  });

  it('answers completions for a model only a msgc-protocol upstream serves, as chat, streamed and not', async () => {
    const whole = await client.completions.create({ model: 'sandbox-claude', prompt: 'Complete me', max_tokens: 50 });
    expect(whole.object).toBe('text_completion');
    expect(whole.id).toMatch(/^cmpl-/);
    expect(whole.model).toBe('sandbox-claude');
    expect(whole.choices[0]!.text).toContain('Complete me');
    expect(whole.choices[0]!.finish_reason).toBe('stop');
    expect(whole.usage!.completion_tokens).toBeGreaterThan(0);
    let joined = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of await client.completions.create({ model: 'sandbox-claude', prompt: 'Complete me', max_tokens: 50, stream: true })) {
      expect(chunk.object).toBe('text_completion');
      joined += chunk.choices[0]?.text ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(joined).toBe(whole.choices[0]!.text);
    expect(usage!.completion_tokens).toBe(whole.usage!.completion_tokens);

    const several = await client.completions.create({ model: 'sandbox-claude', prompt: 'x', n: 2 }).catch((e: unknown) => e);
    expect(several).toBeInstanceOf(OpenAI.BadRequestError);
    expect((several as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('n');
  });

  it('answers responses for a model only a msgc-protocol upstream serves: create, retrieve, stream, and a function tool round trip', async () => {
    const created = await client.responses.create({ model: 'sandbox-claude', input: 'Remember this', max_output_tokens: 50 });
    expect(created.object).toBe('response');
    expect(created.status).toBe('completed');
    expect(created.model).toBe('sandbox-claude');
    expect(created.output_text).toContain('Remember this');
    expect(created.usage!.output_tokens).toBeGreaterThan(0);
    expect((await client.responses.retrieve(created.id)).output_text).toBe(created.output_text);

    let streamed = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of await client.responses.create({ model: 'sandbox-claude', input: 'Remember this', max_output_tokens: 50, stream: true })) {
      if (event.type === 'response.output_text.delta') streamed += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(streamed).toBe(created.output_text);
    expect(completed!.output_text ?? streamed).toBe(streamed);
    expect((await client.responses.retrieve(completed!.id)).status).toBe('completed');

    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather by city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: false,
      },
    ];
    const asked = await client.responses.create({ model: 'sandbox-claude', input: 'Weather in Oslo?', tools });
    const call = asked.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call');
    expect(call?.name).toBe('get_weather');
    const answered = await client.responses.create({
      model: 'sandbox-claude',
      tools,
      input: [{ role: 'user', content: 'Weather in Oslo?' }, call!, { type: 'function_call_output', call_id: call!.call_id, output: '{"celsius":3}' }],
    });
    expect(answered.status).toBe('completed');
    expect(answered.output_text.length).toBeGreaterThan(0);

    const chained = await client.responses.create({ model: 'sandbox-claude', input: 'More', previous_response_id: created.id }).catch((e: unknown) => e);
    expect(chained).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chained as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('previous_response_id');
  });

  it('lists every oaic route it serves as built in the route index', async () => {
    const index = (await http('GET', `${baseUrl()}/docs/api-endpoints.json`)).body as {
      routes: { method: string; path: string }[];
      planned: { path: string }[];
    };
    const built = new Set(index.routes.map((r) => `${r.method} ${r.path}`));
    for (const route of [
      'POST /oaic/v1/chat/completions',
      'POST /v1/chat/completions',
      'POST /v1/completions',
      'POST /v1/responses',
      'GET /v1/responses/{response_id}',
      'POST /v1/embeddings',
      'POST /v1/moderations',
      'POST /oaic/v1/images/generations',
      'POST /oaic/v1/audio/speech',
      'POST /oaic/v1/audio/transcriptions',
      'POST /oaic/v1/audio/translations',
    ]) {
      expect(built).toContain(route);
    }
  });
});
