import { Readable } from 'node:stream';
import { GatewayError } from '@gateway/contracts';
import type { ChannelTarget } from '../../provider.types';
import { extractUsage, fromUpstream, toUpstream } from './openai.adapter';

const channel: ChannelTarget = {
  id: 'ch-1',
  providerId: 'sandbox-openai',
  protocol: 'openai',
  baseUrl: 'http://127.0.0.1:8090/openai/v1/',
  apiKey: 'sk-upstream-secret',
  upstreamModel: 'sandbox-gpt@latency=5',
  priority: 0,
  weight: 1,
};

async function drain(body: unknown): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('latin1');
}

describe('openai adapter: toUpstream', () => {
  it('swaps the model, keeps every other field, and adds the upstream key', () => {
    const body = { model: 'public-gpt', messages: [{ role: 'user', content: 'hi' }], temperature: 0.2, vendor_extra: { a: 1 } };
    const req = toUpstream('chat', body, channel, { stream: false });
    expect(req).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:8090/openai/v1/chat/completions', stream: false });
    expect(req.headers).toMatchObject({ authorization: 'Bearer sk-upstream-secret', 'content-type': 'application/json', accept: 'application/json' });
    expect(JSON.parse(req.body as string)).toEqual({ ...body, model: 'sandbox-gpt@latency=5' });
  });

  it('asks for usage on streamed chat unless the client chose', () => {
    const streamed = JSON.parse(toUpstream('chat', { model: 'm', messages: [], stream: true }, channel, { stream: true }).body as string);
    expect(streamed).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const chosen = JSON.parse(
      toUpstream('chat', { model: 'm', messages: [], stream: true, stream_options: { include_usage: false } }, channel, { stream: true }).body as string,
    );
    expect(chosen.stream_options).toEqual({ include_usage: false });
    expect(toUpstream('chat', { model: 'm', messages: [] }, channel, { stream: true }).headers.accept).toBe('text/event-stream');
  });

  it('sends no authorization header for a keyless channel and maps each operation to its path', () => {
    const keyless = { ...channel, apiKey: null, baseUrl: 'http://llm.local/v1' };
    const req = toUpstream('embeddings', { model: 'm', input: 'x' }, keyless, { stream: false });
    expect(req.headers.authorization).toBeUndefined();
    expect(req.url).toBe('http://llm.local/v1/embeddings');
    expect(toUpstream('images', { model: 'm', prompt: 'p' }, keyless, { stream: false }).url).toBe('http://llm.local/v1/images/generations');
    expect(toUpstream('speech', { model: 'm', input: 'p', voice: 'a' }, keyless, { stream: false }).url).toBe('http://llm.local/v1/audio/speech');
  });

  it('builds a streaming multipart body for transcriptions', async () => {
    const req = toUpstream('transcriptions', { model: 'public-whisper', response_format: 'srt', timestamp_granularities: ['word', 'segment'] }, channel, {
      stream: false,
      file: { filename: 'a.wav', contentType: 'audio/wav', data: Readable.from([Buffer.from('RIFF'), Buffer.from('data')]) },
    });
    const boundary = /boundary=(.+)$/.exec(req.headers['content-type']!)![1]!;
    const text = await drain(req.body);
    expect(text).toContain(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nsandbox-gpt@latency=5\r\n`);
    expect(text).toContain('name="response_format"\r\n\r\nsrt\r\n');
    expect(text.match(/name="timestamp_granularities\[\]"/g)).toHaveLength(2);
    expect(text).toContain('filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFFdata\r\n');
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
    expect(() => toUpstream('translations', { model: 'm' }, channel, { stream: false })).toThrow(GatewayError);
  });
});

describe('openai adapter: fromUpstream and usage', () => {
  const completion = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'sandbox-gpt@latency=5',
    choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    system_fingerprint: 'fp',
  };

  it('maps the model back to the public id and keeps the rest', () => {
    expect(fromUpstream('chat', completion, 'public-gpt')).toEqual({ ...completion, model: 'public-gpt' });
    expect(fromUpstream('images', { created: 1, data: [{ b64_json: 'x' }] }, 'img')).toEqual({ created: 1, data: [{ b64_json: 'x' }] });
  });

  it('refuses an answer missing what we rely on', () => {
    expect(() => fromUpstream('chat', { id: 'x' }, 'p')).toThrow(
      expect.objectContaining({ code: 'upstream_error', message: expect.stringContaining('choices') }),
    );
    expect(() => fromUpstream('embeddings', { data: 'nope' }, 'p')).toThrow(GatewayError);
  });

  it('extracts usage from answers, chunks and responses events', () => {
    expect(extractUsage(completion)).toEqual({ promptTokens: 4, completionTokens: 2, totalTokens: 6 });
    expect(extractUsage({ usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 } })).toEqual({ promptTokens: 3, completionTokens: 5, totalTokens: 8 });
    expect(extractUsage({ type: 'response.completed', response: { usage: { input_tokens: 1, output_tokens: 1 } } })).toEqual({
      promptTokens: 1,
      completionTokens: 1,
      totalTokens: 2,
    });
    expect(extractUsage({ usage: { prompt_tokens: 7, total_tokens: 7 } })).toEqual({ promptTokens: 7, completionTokens: 0, totalTokens: 7 });
    expect(extractUsage({ usage: null })).toBeNull();
    expect(extractUsage('text')).toBeNull();
  });
});
