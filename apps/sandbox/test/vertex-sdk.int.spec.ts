// Drives the sandbox's Vertex AI protocol with the vendors' own clients: @google/genai in Vertex mode and
// @anthropic-ai/vertex-sdk, both authenticated by google-auth-library with the sandbox's test service account.
import AnthropicVertex from '@anthropic-ai/vertex-sdk';
import type Anthropic from '@anthropic-ai/sdk';
import { type FunctionDeclaration, GoogleGenAI, Type } from '@google/genai';
import type { FastifyInstance } from 'fastify';
import type { GoogleAuth } from 'google-auth-library';
import { generateKeyPairSync } from 'node:crypto';
import { getGlobalDispatcher } from 'undici';
import { buildSandboxApp } from '../src/sandbox.app';
import { VERTEX_TEST_SERVICE_ACCOUNT } from '../src/protocols/vertex/test-service-account';
import { sandboxGoogleAuth, testAccountJwt } from './support/sandbox-google-auth';

const PROJECT = VERTEX_TEST_SERVICE_ACCOUNT.project_id;
const VERTEX_VERSION = { 'anthropic-version': 'vertex-2023-10-16' };

let app: FastifyInstance;
let base: string;
let tokenUrl: string;
let auth: GoogleAuth;
let genai: GoogleGenAI;
let claude: AnthropicVertex;

beforeAll(async () => {
  // Jest runs specs in their own realm, where Node's fetch has not registered its global dispatcher;
  // the SDKs look it up there, so one is registered for them.
  getGlobalDispatcher();
  ({ app } = await buildSandboxApp());
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  tokenUrl = `${base}/vertex/token`;
  auth = await sandboxGoogleAuth(tokenUrl);
  genai = new GoogleGenAI({
    vertexai: true,
    project: PROJECT,
    location: 'us-central1',
    googleAuthOptions: { authClient: await auth.getClient() },
    httpOptions: { baseUrl: `${base}/vertex` },
  });
  claude = new AnthropicVertex({
    baseURL: `${base}/vertex/v1`,
    region: 'us-east5',
    projectId: PROJECT,
    googleAuth: auth,
    defaultHeaders: VERTEX_VERSION,
    maxRetries: 0,
  });
});

afterAll(async () => {
  await app.close();
});

async function issuedTokens(): Promise<number> {
  return ((await (await fetch(`${base}/vertex/_sandbox/tokens`)).json()) as { issued: number }).issued;
}

async function accessToken(ttlSeconds?: number): Promise<string> {
  const client = testAccountJwt(ttlSeconds ? `${tokenUrl}?ttl=${ttlSeconds}` : tokenUrl);
  const { token } = await client.getAccessToken();
  return token!;
}

const weather: FunctionDeclaration = {
  name: 'get_weather',
  description: 'Weather now',
  parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] },
};

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather now',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('sandbox Vertex AI: Gemini via @google/genai in Vertex mode', () => {
  it('generates text with usage, streams the same text, and counts tokens', async () => {
    const response = await genai.models.generateContent({ model: 'sandbox-gemini', contents: 'Tell me the plan.' });
    expect(response.text).toBe('You said: Tell me the plan.');
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 8, totalTokenCount: 13 });

    let text = '';
    let chunks = 0;
    for await (const chunk of await genai.models.generateContentStream({ model: 'sandbox-gemini', contents: 'Tell me the plan.' })) {
      text += chunk.text ?? '';
      chunks++;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toBe('You said: Tell me the plan.');

    const counted = await genai.models.countTokens({ model: 'sandbox-gemini', contents: 'Tell me the plan.' });
    expect(counted.totalTokens).toBe(5);
  });

  it('calls a function and answers its response', async () => {
    const config = { tools: [{ functionDeclarations: [weather] }] };
    const call = await genai.models.generateContent({ model: 'sandbox-gemini', contents: 'Paris', config });
    expect(call.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);

    const answer = await genai.models.generateContent({
      model: 'sandbox-gemini',
      config,
      contents: [
        { role: 'user', parts: [{ text: 'Paris' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 18 } } }] },
      ],
    });
    expect(answer.text).toBe('The get_weather tool returned: {"temp":18}');
  });

  it('embeds through :predict for a text-embedding model and :embedContent for a Gemini one', async () => {
    const predicted = await genai.models.embedContent({ model: 'sandbox-text-embed', contents: ['alpha beta', 'gamma'], config: { outputDimensionality: 64 } });
    expect(predicted.embeddings).toHaveLength(2);
    expect(predicted.embeddings?.[0]?.values).toHaveLength(64);
    expect(predicted.embeddings?.[0]?.statistics?.tokenCount).toBe(2);
    expect(predicted.embeddings?.[0]?.values).not.toEqual(predicted.embeddings?.[1]?.values);

    const embedded = await genai.models.embedContent({ model: 'sandbox-gemini-embedding', contents: 'alpha beta' });
    expect(embedded.embeddings?.[0]?.values).toHaveLength(768);
    expect(embedded.embeddings?.[0]?.statistics?.tokenCount).toBe(2);
  });

  it('streams one JSON array when alt=sse is not asked for', async () => {
    const response = await fetch(`${base}/vertex/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/sandbox-gemini:streamGenerateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await accessToken()}` },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Tell me the plan.' }] }] }),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    const chunks = (await response.json()) as { candidates: { content: { parts: { text?: string }[] } }[] }[];
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((chunk) => chunk.candidates[0]!.content.parts[0]!.text ?? '').join('')).toBe('You said: Tell me the plan.');
  });
});

describe('sandbox Vertex AI: Claude via @anthropic-ai/vertex-sdk', () => {
  it('answers a message whole and streamed', async () => {
    const message = await claude.messages.create({ model: 'sandbox-claude', max_tokens: 64, messages: [{ role: 'user', content: 'Tell me the plan.' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: Tell me the plan.' }]);
    expect(message.model).toBe('sandbox-claude');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 8 });

    const stream = claude.messages.stream({ model: 'sandbox-claude', max_tokens: 64, messages: [{ role: 'user', content: 'Tell me the plan.' }] });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    expect(await stream.finalText()).toBe('You said: Tell me the plan.');
    expect(deltas.length).toBeGreaterThan(2);
    expect((await stream.finalMessage()).usage.output_tokens).toBe(8);
  });

  it('calls a tool, streamed with its input whole, and answers its result', async () => {
    const stream = claude.messages.stream({ model: 'sandbox-claude', max_tokens: 64, tools: [weatherTool], messages: [{ role: 'user', content: 'Paris' }] });
    const called = await stream.finalMessage();
    expect(called.stop_reason).toBe('tool_use');
    const use = called.content.find((block) => block.type === 'tool_use');
    expect(use).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });

    const answer = await claude.messages.create({
      model: 'sandbox-claude',
      max_tokens: 64,
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Paris' },
        { role: 'assistant', content: called.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use!.type === 'tool_use' ? use!.id : '', content: '{"temp":18}' }] },
      ],
    });
    expect(answer.content).toEqual([{ type: 'text', text: 'The get_weather tool returned: {"temp":18}' }]);
  });

  it("requires Vertex's anthropic_version, which the SDK takes from the anthropic-version header", async () => {
    const unversioned = new AnthropicVertex({ baseURL: `${base}/vertex/v1`, region: 'us-east5', projectId: PROJECT, googleAuth: auth, maxRetries: 0 });
    const refused = await unversioned.messages
      .create({ model: 'sandbox-claude', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AnthropicVertex.BadRequestError);
    expect((refused as Error).message).toContain("anthropic_version: Input should be 'vertex-2023-10-16'");
  });
});

describe('sandbox Vertex AI: drift in its answers is what the SDKs notice', () => {
  it('misreads a Gemini answer whose candidates and a Claude answer whose content come under another name', async () => {
    const gemini = await genai.models.generateContent({ model: 'sandbox-gemini@drift=candidates', contents: 'Tell me the plan.' });
    expect(gemini.candidates).toBeUndefined();
    expect(gemini.text).toBeUndefined();

    const message = await claude.messages.create({
      model: 'sandbox-claude@drift=content',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Tell me the plan.' }],
    });
    expect(message.content).toBeUndefined();
    expect((message as unknown as Record<string, unknown>).content_drifted).toEqual([{ type: 'text', text: 'You said: Tell me the plan.' }]);

    const stream = claude.messages.stream({ model: 'sandbox-claude@drift=delta', max_tokens: 64, messages: [{ role: 'user', content: 'Tell me the plan.' }] });
    expect(await stream.finalText().catch((e: unknown) => e)).toBeInstanceOf(Error);
  });
});

describe('sandbox Vertex AI: tokens', () => {
  it('issues a token for a valid assertion and counts it', async () => {
    const before = await issuedTokens();
    expect(await accessToken()).toMatch(/^ya29\.sandbox-/);
    expect(await issuedTokens()).toBe(before + 1);
  });

  it('refuses an assertion signed by another key, for another audience, expired, or without the scope', async () => {
    const { privateKey: otherKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const now = Math.floor(Date.now() / 1000);
    const cases: [Parameters<typeof testAccountJwt>[1], string][] = [
      [{ key: otherKey }, 'invalid_grant: Invalid JWT Signature.'],
      [{ additionalClaims: { aud: `${base}/vertex/token` } }, 'invalid_grant: Invalid JWT: Failed audience check.'],
      [{ additionalClaims: { iat: now - 7200, exp: now - 3600 } }, 'invalid_grant: Invalid JWT: Token must be a short-lived token'],
      [{ scopes: ['https://www.googleapis.com/auth/userinfo.email'] }, 'invalid_scope: Invalid OAuth scope'],
    ];
    const before = await issuedTokens();
    for (const [overrides, message] of cases) {
      const refused = await testAccountJwt(tokenUrl, overrides)
        .getAccessToken()
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toContain(message);
    }
    expect(await issuedTokens()).toBe(before);
  });

  it("answers a missing, unknown or expired access token with Google's 401", async () => {
    const short = await accessToken(1);
    const url = `${base}/vertex/v1/projects/${PROJECT}/locations/us-central1/publishers/google/models/sandbox-gemini:generateContent`;
    const call = (authorization?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      });
    expect((await call(`Bearer ${short}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const authorization of [undefined, 'Bearer ya29.not-issued-here', `Bearer ${short}`]) {
      const refused = await call(authorization);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({
        error: { code: 401, message: expect.stringContaining('invalid authentication credentials'), status: 'UNAUTHENTICATED' },
      });
    }
  });
});
