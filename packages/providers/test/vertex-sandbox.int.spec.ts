// The Vertex transforms and token source against the real sandbox: tokens from its token endpoint with the
// test service account, Gemini and Claude calls on its Vertex paths, whole and streamed.
import { ChatCompletionRequest, GatewayError, parseOrThrow } from '@gateway/contracts';
import { buildSandboxApp, VERTEX_TEST_SERVICE_ACCOUNT, VERTEX_TEST_SERVICE_ACCOUNT_FILE } from '@gateway/sandbox';
import type { FastifyInstance } from 'fastify';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChannelTarget,
  closeUpstreamConnections,
  countTokens,
  FAMILY_CHAT,
  fromOaicRequest,
  fromVertexEmbeddings,
  parseSse,
  readBodyJson,
  sendUpstream,
  toVertexEmbeddingsRequest,
  type UpstreamChatCodec,
  vertexAccessToken,
  vertexAuthStep,
  vertexClaudeChat,
  vertexGeminiChat,
} from '../src';

let app: FastifyInstance;
let base: string;
let scratch: string;

beforeAll(async () => {
  ({ app } = await buildSandboxApp());
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  scratch = mkdtempSync(join(tmpdir(), 'vertex-keys-'));
});

afterAll(async () => {
  await closeUpstreamConnections();
  await app.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function issuedTokens(): Promise<number> {
  return ((await (await fetch(`${base}/vertex/_sandbox/tokens`)).json()) as { issued: number }).issued;
}

const tokenSource = (providerId: string, query = '', credentialsFile = VERTEX_TEST_SERVICE_ACCOUNT_FILE, renewBeforeMs?: number) =>
  vertexAccessToken({ providerId, credentialsFile, tokenUrl: `${base}/vertex/token${query}`, renewBeforeMs });

function channel(publisher: 'gemini' | 'anthropic', upstreamModel: string): ChannelTarget {
  return {
    id: `ch-vertex-${publisher}`,
    providerId: 'sandbox-vertex',
    protocol: 'vertex',
    baseUrl: `${base}/vertex`,
    settings: { project: VERTEX_TEST_SERVICE_ACCOUNT.project_id, location: 'us-east5', credentials: 'workload' },
    apiKey: null,
    upstreamModel,
    priority: 0,
    weight: 1,
  };
}

describe('vertexAccessToken against the sandbox token endpoint', () => {
  it('renews a token at expiry once for 200 concurrent requests', async () => {
    const source = tokenSource('sandbox-vertex', '?ttl=2', VERTEX_TEST_SERVICE_ACCOUNT_FILE, 1000);
    const before = await issuedTokens();
    const first = await source.token();
    expect(await source.token()).toBe(first);
    expect(await issuedTokens()).toBe(before + 1);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    const renewed = await Promise.all(Array.from({ length: 200 }, () => source.token()));
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(first);
    expect(await issuedTokens()).toBe(before + 2);
  });

  it('surfaces a failing token endpoint as an upstream_error naming the provider and no secret', async () => {
    const failure = await tokenSource('vertex-eu-prod', '?fail=500')
      .token()
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({
      code: 'upstream_error',
      message: 'Provider "vertex-eu-prod" could not get a Google access token: its token endpoint answered HTTP 500.',
    });
  });

  it('surfaces a key the endpoint refuses the same way, without the key or the assertion', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const file = join(scratch, 'rotated-away.json');
    writeFileSync(file, JSON.stringify({ ...VERTEX_TEST_SERVICE_ACCOUNT, private_key: privateKey }));
    const failure = await tokenSource('vertex-us', '', file)
      .token()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: 'upstream_error',
      message: 'Provider "vertex-us" could not get a Google access token: its token endpoint answered HTTP 400.',
    });
    expect(JSON.stringify(failure)).not.toMatch(/PRIVATE KEY|eyJ/);
  });

  it('reads a rotated key file again, with no new source', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const file = join(scratch, 'mounted-secret.json');
    writeFileSync(file, JSON.stringify({ ...VERTEX_TEST_SERVICE_ACCOUNT, private_key: privateKey }));
    const source = tokenSource('vertex-rotating', '', file);
    expect(await source.token().catch((e: unknown) => e)).toMatchObject({ code: 'upstream_error' });

    writeFileSync(file, readFileSync(VERTEX_TEST_SERVICE_ACCOUNT_FILE));
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(await source.token()).toMatch(/^ya29\.sandbox-/);
  });
});

describe('Vertex calls through the transforms and the auth step', () => {
  const authorize = () => vertexAuthStep(tokenSource('sandbox-vertex'));
  const oaic = (stream: boolean, tools: boolean) =>
    fromOaicRequest(
      parseOrThrow(ChatCompletionRequest, {
        model: 'pub',
        stream,
        messages: [{ role: 'user', content: tools ? 'Paris' : 'Tell me the plan.' }],
        ...(tools
          ? { tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }] }
          : {}),
      }),
    );
  const cases: [string, UpstreamChatCodec, ChannelTarget['protocol'], string][] = [
    ['Gemini', vertexGeminiChat, 'gemini', 'sandbox-gemini'],
    ['Claude', vertexClaudeChat, 'anthropic', 'sandbox-claude'],
  ];

  it.each(cases)('%s answers an oaic request whole, and streams a tool call whose arguments arrive whole', async (_name, codec, protocol, model) => {
    const step = authorize();
    const target = channel(protocol as 'gemini' | 'anthropic', model);
    const ir = oaic(false, false);
    const context = { model: 'pub', fallbackId: 'id', estimatedInputTokens: countTokens(ir) };
    const response = await sendUpstream(await step(codec.toRequest(ir, target)));
    expect(response.status).toBe(200);
    const answer = FAMILY_CHAT.oaic.toResponse(codec.fromResponse(await readBodyJson(response.body), context));
    expect(JSON.stringify(answer)).toContain('You said: Tell me the plan.');

    const toolIr = oaic(true, true);
    const streamed = await sendUpstream(await step(codec.toRequest(toolIr, target)));
    expect(streamed.status).toBe(200);
    const decoder = codec.streamDecoder({ ...context, estimatedInputTokens: countTokens(toolIr) });
    let args = '';
    const collect = (events: ReturnType<typeof decoder.push>) => {
      for (const event of events) if (event.type === 'tool_call_delta') args += event.arguments;
    };
    for await (const message of parseSse(streamed.body)) collect(decoder.push(message));
    collect(decoder.end());
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
  });

  it('embeds through :predict', async () => {
    const step = authorize();
    const response = await sendUpstream(
      await step(toVertexEmbeddingsRequest({ texts: ['alpha beta', 'gamma'], dimensions: 32 }, channel('gemini', 'sandbox-text-embed'))),
    );
    expect(response.status).toBe(200);
    const embeddings = fromVertexEmbeddings(await readBodyJson(response.body));
    expect(embeddings.vectors.map((vector) => vector.length)).toEqual([32, 32]);
    expect(embeddings.promptTokens).toBe(3);
  });
});
