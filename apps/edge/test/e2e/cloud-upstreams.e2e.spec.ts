/**
 * Bedrock and Vertex behind the gateway, beyond the chat matrix: embeddings on each cloud's own API, a
 * signature the sandbox refuses and a token endpoint that fails (the client sees the provider named, never
 * a secret), and a spent Bedrock quota (a 400 naming ServiceQuotaExceededException) that moves the request
 * to the model's next channel.
 */
import { REPO_ROOT } from '@gateway/cli';
import { ConsoleCatalogHealthPage } from '@gateway/contracts';
import { retrying } from '@gateway/platform/testing';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type OpenAI from 'openai';
import { e2eEnv } from './support/e2e-env';
import { createTenantWithKey, http, openaiClient, uniqueSlug } from './support/gateway';

const CLAUDE = 'us.anthropic.claude-sonnet-4-20250514-v1:0';
const WRONG_SECRET = 'wrong/secret/access/key/for/the/sandbox0000';
/** The sandbox's test-only service account, as the sandbox catalog names it. */
const SERVICE_ACCOUNT_FILE = path.join(REPO_ROOT, 'apps/sandbox/src/protocols/vertex/fixtures/test-only-service-account.json');
const { project_id: PROJECT } = JSON.parse(readFileSync(SERVICE_ACCOUNT_FILE, 'utf8')) as { project_id: string };

describe('cloud upstreams through the gateway', () => {
  const suffix = uniqueSlug('cloud');
  const sandbox = () => e2eEnv().GW_E2E_SANDBOX_URL;
  const names = {
    wrongKey: `bedrock-wrong-${suffix}`,
    failingToken: `vertex-token-${suffix}`,
    quota: `quota-${suffix}`,
    unsigned: `unsigned-${suffix}`,
    untokened: `untokened-${suffix}`,
  };
  let client: OpenAI;

  beforeAll(async () => {
    const models = [names.quota, names.unsigned, names.untokened, 'sandbox-bedrock-titan-embed', 'sandbox-vertex-embedding', 'sandbox-bedrock-claude'];
    const tenant = await createTenantWithKey({
      label: 'cloud',
      models,
      catalog: {
        providers: [
          {
            id: names.wrongKey,
            protocol: 'bedrock',
            baseUrl: `${sandbox()}/bedrock`,
            apiKey: WRONG_SECRET,
            settings: { region: 'us-east-1', accessKeyId: 'AKIASANDBOXBEDROCK01' },
          },
          {
            id: names.failingToken,
            protocol: 'vertex',
            baseUrl: `${sandbox()}/vertex`,
            settings: {
              project: PROJECT,
              location: 'us-east5',
              credentialsFile: SERVICE_ACCOUNT_FILE,
              tokenUrl: `${sandbox()}/vertex/token?fail=500`,
            },
          },
        ],
        models: [
          {
            id: names.quota,
            displayName: 'Quota spent on the first channel',
            capability: 'chat',
            public: false,
            channels: [
              { provider: 'sandbox-bedrock', upstreamModel: `${CLAUDE}@bedrock=quota`, priority: 0 },
              { provider: 'sandbox-bedrock', upstreamModel: 'meta.llama3-3-70b-instruct-v1:0', priority: 1 },
            ],
            prices: { inputPerMTok: '1.00', outputPerMTok: '1.00' },
          },
          {
            id: names.unsigned,
            displayName: 'Signed with a wrong secret',
            capability: 'chat',
            public: false,
            provider: names.wrongKey,
            upstreamModel: CLAUDE,
            prices: { inputPerMTok: '1.00', outputPerMTok: '1.00' },
          },
          {
            id: names.untokened,
            displayName: 'No token to be had',
            capability: 'chat',
            public: false,
            provider: names.failingToken,
            upstreamModel: 'gemini-2.5-flash',
            prices: { inputPerMTok: '1.00', outputPerMTok: '1.00' },
          },
        ],
      },
    });
    client = openaiClient(tenant.key);
  });

  it('embeds on Bedrock Titan (one call per input) and on Vertex, floats and base64 alike', async () => {
    for (const model of ['sandbox-bedrock-titan-embed', 'sandbox-vertex-embedding']) {
      const floats = await client.embeddings.create({ model, input: ['the first text', 'a second one'], dimensions: 256 });
      expect(floats.model).toBe(model);
      expect(floats.data.map((item) => item.index)).toEqual([0, 1]);
      expect(floats.data[0]!.embedding).toHaveLength(256);
      expect(floats.data[0]!.embedding).not.toEqual(floats.data[1]!.embedding);
      expect(floats.usage.prompt_tokens).toBeGreaterThan(0);
      const encoded = await client.embeddings.create({ model, input: 'the first text', dimensions: 256, encoding_format: 'base64' });
      // Asked for Base64, the SDK hands the string on: little-endian float32s of the same vector.
      const bytes = Buffer.from(encoded.data[0]!.embedding as unknown as string, 'base64');
      const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
      expect(decoded).toEqual(floats.data[0]!.embedding.map((value) => Math.fround(value)));
    }
  });

  it("refuses token arrays for a cloud's text embedding model, naming input", async () => {
    const refused = await client.embeddings.create({ model: 'sandbox-bedrock-titan-embed', input: [[1, 2, 3]] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, param: 'input' });
  });

  it("moves on to the next channel when Bedrock says the quota is spent (HTTP 400), counted on the console's catalog as throttled", async () => {
    const answer = await client.chat.completions.create({ model: names.quota, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(answer.choices[0]!.message.content).toContain('Hello there');
    expect(answer.model).toBe(names.quota);

    const admin = e2eEnv().GW_E2E_ADMIN_URL;
    const signedIn = await http('POST', `${admin}/console/api/session`, { headers: { origin: admin }, json: { token: e2eEnv().GW_E2E_ADMIN_TOKEN } });
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    // Each process answers the health broadcast within its window: a busy one may miss a look, not every look.
    await retrying(
      async () => {
        const page = ConsoleCatalogHealthPage.parse((await http('GET', `${admin}/console/api/catalog?search=${names.quota}`, { headers: { cookie } })).body);
        const [spent, served] = page.data.find((model) => model.id === names.quota)!.channels;
        expect(spent!.health).toMatchObject({ calls: 1, errors: 1, throttled: 1, failovers: 1 });
        expect(served!.health).toMatchObject({ calls: 1, errors: 0, throttled: 0 });
      },
      20_000,
      500,
    );
  });

  it('answers a request signed with a wrong secret with a 502 naming the provider, never the secret', async () => {
    for (const stream of [false, true]) {
      const refused = await (async () => {
        const answer = await client.chat.completions.create({ model: names.unsigned, messages: [{ role: 'user', content: 'Hi' }], stream });
        if (stream) for await (const _ of answer as AsyncIterable<unknown>) void _;
      })().catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 502 });
      const message = (refused as Error).message;
      expect(message).toContain(`"${names.wrongKey}"`);
      expect(message).toMatch(/refused the gateway's credentials \(HTTP 403\)/);
      expect(message).not.toContain(WRONG_SECRET);
    }
  });

  it('answers a Vertex model whose token endpoint fails with a 502 naming the provider', async () => {
    const refused = await client.chat.completions
      .create({ model: names.untokened, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502 });
    expect((refused as Error).message).toContain(`Provider "${names.failingToken}" could not get a Google access token`);
    expect((refused as Error).message).not.toContain('private_key');
  });
});
