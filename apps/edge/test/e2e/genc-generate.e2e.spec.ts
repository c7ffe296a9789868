/** The genc family through the running gateway with the official @google/genai SDK: text, streams, function calls, image output, errors. */
import { GoogleGenAI, Modality, Type, type FunctionDeclaration, type GenerateContentResponse } from '@google/genai';
import { randomUUID } from 'node:crypto';
import { getGlobalDispatcher } from 'undici';
import { baseUrl, bearer, createTenantWithKey, googleClient, http, type TenantWithKey } from './support/gateway';
import { PNG_BASE64, usageRecord } from './support/oaic-fixtures';

const MODEL = 'sandbox-gemini';
const weather: FunctionDeclaration = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<{ text: string; chunks: GenerateContentResponse[] }> {
  const chunks: GenerateContentResponse[] = [];
  let text = '';
  for await (const chunk of stream) {
    chunks.push(chunk);
    text += chunk.text ?? '';
  }
  return { text, chunks };
}

describe('genc generateContent', () => {
  let tenant: TenantWithKey;
  let client: GoogleGenAI;

  beforeAll(async () => {
    // The SDK looks up Node's global dispatcher, which jest's realm has not registered yet.
    getGlobalDispatcher();
    tenant = await createTenantWithKey({ label: 'genc' });
    client = googleClient(tenant.key);
  });

  it('generates text with finishReason and usageMetadata', async () => {
    const response = await client.models.generateContent({ model: MODEL, contents: 'What is the gateway?' });
    expect(response.text).toContain('What is the gateway?');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.modelVersion).toBe(MODEL);
    const usage = response.usageMetadata!;
    expect(usage.promptTokenCount).toBeGreaterThan(0);
    expect(usage.totalTokenCount).toBe(usage.promptTokenCount! + usage.candidatesTokenCount!);
  });

  it('streams chunks whose text equals the unary answer, usage on the last', async () => {
    const whole = await client.models.generateContent({ model: MODEL, contents: 'Tell me about streams, please.' });
    const { text, chunks } = await collect(await client.models.generateContentStream({ model: MODEL, contents: 'Tell me about streams, please.' }));
    expect(chunks.length).toBeGreaterThan(2);
    expect(text).toBe(whole.text);
    const last = chunks[chunks.length - 1]!;
    expect(last.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last.usageMetadata?.candidatesTokenCount).toBe(whole.usageMetadata?.candidatesTokenCount);
  });

  it('round-trips a function call', async () => {
    const config = { tools: [{ functionDeclarations: [weather] }] };
    const first = await client.models.generateContent({ model: MODEL, contents: 'Paris', config });
    expect(first.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);
    const second = await client.models.generateContent({
      model: MODEL,
      config,
      contents: [
        { role: 'user', parts: [{ text: 'Paris' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 21 } } }, { text: 'And now?' }] },
      ],
    });
    expect(second.text).toContain('temperature');
  });

  it('outputs an image with TEXT and IMAGE modalities', async () => {
    const response = await client.models.generateContent({
      model: 'sandbox-gemini-image',
      contents: 'Draw a small square',
      config: { responseModalities: [Modality.TEXT, Modality.IMAGE] },
    });
    const image = response.candidates?.[0]?.content?.parts?.find((part) => part.inlineData)?.inlineData;
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const text = response.candidates?.[0]?.content?.parts?.map((part) => part.text ?? '').join('');
    expect(text).toContain('Draw a small square');
  });

  it('takes inline image data and generation settings', async () => {
    const response = await client.models.generateContent({
      model: MODEL,
      contents: [{ role: 'user', parts: [{ text: 'Describe one two three four five six' }, { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }] }],
      config: { temperature: 0.2, topP: 0.9, topK: 4, maxOutputTokens: 3, stopSequences: ['zzz'] },
    });
    expect(response.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(response.usageMetadata?.candidatesTokenCount).toBe(3);
  });

  it('records usage of a stream, findable by the x-request-id the client sent', async () => {
    const clientRequestId = randomUUID();
    const { chunks } = await collect(
      await client.models.generateContentStream({
        model: MODEL,
        contents: 'count my genc stream',
        config: { httpOptions: { headers: { 'x-request-id': clientRequestId } } },
      }),
    );
    const last = chunks[chunks.length - 1]!;
    // The SDK hides the response headers: the row is found by the client's own id, kept beside the server's.
    const usage = await usageRecord(clientRequestId, 10_000, 'client');
    expect(usage.request_id).not.toBe(clientRequestId);
    expect(usage).toMatchObject({
      model_id: MODEL,
      outcome: 'ok',
      prompt_tokens: last.usageMetadata!.promptTokenCount,
      completion_tokens: last.usageMetadata!.candidatesTokenCount,
    });
  });

  describe('bad input, in the genc dialect', () => {
    const url = (tail: string) => `${baseUrl()}/genc/${tail}`;
    const text = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

    it('contents without a text part is 400', async () => {
      const response = await http('POST', url(`v1beta/models/${MODEL}:generateContent`), {
        headers: bearer(tenant.key),
        json: { contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }] }] },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 400, message: expect.stringContaining('text part'), status: 'INVALID_ARGUMENT' } });
    });

    it('a v1 route is 404', async () => {
      const response = await http('POST', url(`v1/models/${MODEL}:generateContent`), { headers: bearer(tenant.key), json: text });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 404, message: expect.any(String), status: 'NOT_FOUND' } });
    });

    it('streaming without alt=sse is 400 naming alt', async () => {
      const response = await http('POST', url(`v1beta/models/${MODEL}:streamGenerateContent`), { headers: bearer(tenant.key), json: text });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 400, message: expect.stringContaining('alt'), status: 'INVALID_ARGUMENT' } });
    });

    it('IMAGE without TEXT is 400', async () => {
      const response = await http('POST', url('v1beta/models/sandbox-gemini-image:generateContent'), {
        headers: bearer(tenant.key),
        json: { ...text, generationConfig: { responseModalities: ['IMAGE'] } },
      });
      expect(response.status).toBe(400);
      expect((response.body as { error: { message: string } }).error.message).toContain('responseModalities');
    });

    it('an unknown model is 404 through the SDK', async () => {
      const error = await client.models.generateContent({ model: 'no-such-model', contents: 'hi' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 404 });
    });
  });
});
