// Drives the sandbox's Gemini protocol with the official @google/genai SDK, as an upstream client would.
import { FunctionCallingConfigMode, GoogleGenAI, Modality, Type, type FunctionDeclaration } from '@google/genai';
import type { FastifyInstance } from 'fastify';
import { getGlobalDispatcher } from 'undici';
import { buildSandboxApp } from '../src/sandbox.app';

let app: FastifyInstance;
let base: string;
let client: GoogleGenAI;

beforeAll(async () => {
  // Jest runs specs in their own realm, where Node's fetch has not registered its global dispatcher;
  // the SDK looks it up there, so one is registered for it.
  getGlobalDispatcher();
  ({ app } = await buildSandboxApp());
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  client = new GoogleGenAI({ apiKey: 'upstream-gemini-key', httpOptions: { baseUrl: `${base}/gemini`, apiVersion: 'v1beta' } });
});

afterAll(async () => {
  await app.close();
});

const weather: FunctionDeclaration = {
  name: 'get_weather',
  description: 'Weather now',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};

describe('sandbox Gemini protocol via @google/genai', () => {
  it('generates text with usage metadata, and streams the same text', async () => {
    const response = await client.models.generateContent({ model: 'sandbox-gemini', contents: 'Tell me the plan.' });
    expect(response.text).toBe('You said: Tell me the plan.');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 8, totalTokenCount: 13 });

    let text = '';
    let chunks = 0;
    let last: Awaited<ReturnType<typeof client.models.generateContent>> | undefined;
    for await (const chunk of await client.models.generateContentStream({ model: 'sandbox-gemini', contents: 'Tell me the plan.' })) {
      text += chunk.text ?? '';
      chunks++;
      last = chunk;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toBe('You said: Tell me the plan.');
    expect(last?.usageMetadata?.candidatesTokenCount).toBe(8);
  });

  it('calls a function and answers its response', async () => {
    const config = { tools: [{ functionDeclarations: [weather] }] };
    const call = await client.models.generateContent({ model: 'sandbox-gemini', contents: 'Paris', config });
    expect(call.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);

    const answer = await client.models.generateContent({
      model: 'sandbox-gemini',
      config,
      contents: [
        { role: 'user', parts: [{ text: 'Paris' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 18 } } }] },
      ],
    });
    expect(answer.text).toBe('The get_weather tool returned: {"temp":18}');

    const none = await client.models.generateContent({
      model: 'sandbox-gemini',
      contents: 'Paris',
      config: { ...config, toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } } },
    });
    expect(none.functionCalls).toBeUndefined();
  });

  it('outputs an image from the image model when asked for TEXT and IMAGE', async () => {
    const response = await client.models.generateContent({
      model: 'sandbox-gemini-image',
      contents: 'A red square',
      config: { responseModalities: [Modality.TEXT, Modality.IMAGE] },
    });
    const image = response.candidates?.[0]?.content?.parts?.find((part) => part.inlineData)?.inlineData;
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(response.text).toBe('You said: A red square');
  });

  it('honours maxOutputTokens and stopSequences', async () => {
    const cut = await client.models.generateContent({ model: 'sandbox-gemini', contents: 'Tell me the plan.', config: { maxOutputTokens: 2 } });
    expect(cut.candidates?.[0]?.finishReason).toBe('MAX_TOKENS');
    expect(cut.usageMetadata?.candidatesTokenCount).toBe(2);
    const stopped = await client.models.generateContent({ model: 'sandbox-gemini', contents: 'Tell me the plan.', config: { stopSequences: ['plan'] } });
    expect(stopped.text).toBe('You said: Tell me the');
  });

  it('answers errors in the Gemini dialect', async () => {
    const anonymous = await fetch(`${base}/gemini/v1beta/models/sandbox-gemini:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const noSse = await fetch(`${base}/gemini/v1beta/models/sandbox-gemini:streamGenerateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'k' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'x' }] }] }),
    });
    expect(noSse.status).toBe(400);
    const failed = await client.models.generateContent({ model: 'sandbox-gemini@fail=500', contents: 'x' }).catch((e: unknown) => e);
    expect((failed as Error).message).toContain('500');
  });
});
