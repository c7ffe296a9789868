// The sandbox's Bedrock refuses what AWS refuses: requests signed with the SDK's own signer but with a
// wrong secret, a wrong region, a stale date or a body changed after signing, each a 403 in Bedrock's shape.
import { Sha256 } from '@aws-crypto/sha256-js';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import type { FastifyInstance } from 'fastify';
import { BEDROCK_SANDBOX_REGION, BEDROCK_TEST_ACCESS_KEY_ID, BEDROCK_TEST_SECRET_ACCESS_KEY } from '../src/protocols/bedrock/bedrock.keys';
import { buildSandboxApp } from '../src/sandbox.app';

let app: FastifyInstance;
let base: URL;

beforeAll(async () => {
  ({ app } = await buildSandboxApp());
  base = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
});

afterAll(async () => {
  await app.close();
});

const PATH = `/bedrock/model/${encodeURIComponent('us.anthropic.claude-sonnet-4-20250514-v1:0')}/converse`;
const BODY = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi.' }] }] });

interface Signing {
  accessKeyId?: string;
  secret?: string;
  region?: string;
  date?: Date;
  sentBody?: string;
  extraHeaders?: Record<string, string>;
}

async function call({
  accessKeyId = BEDROCK_TEST_ACCESS_KEY_ID,
  secret = BEDROCK_TEST_SECRET_ACCESS_KEY,
  region = BEDROCK_SANDBOX_REGION,
  date,
  sentBody,
  extraHeaders = {},
}: Signing = {}) {
  const signer = new SignatureV4({ credentials: { accessKeyId, secretAccessKey: secret }, region, service: 'bedrock', sha256: Sha256 });
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: base.hostname,
      port: Number(base.port),
      path: PATH,
      query: {},
      headers: { host: base.host, 'content-type': 'application/json', ...extraHeaders },
      body: BODY,
    },
    date ? { signingDate: date } : {},
  );
  const { host: _host, ...headers } = signed.headers;
  const response = await fetch(new URL(PATH, base), { method: 'POST', headers, body: sentBody ?? BODY });
  return { status: response.status, type: response.headers.get('x-amzn-errortype'), body: (await response.json()) as Record<string, unknown> };
}

describe('sandbox Bedrock SigV4 verification', () => {
  it('answers a request signed with the test key for its region', async () => {
    const answer = await call();
    expect(answer.status).toBe(200);
    expect(answer.body.stopReason).toBe('end_turn');
  });

  it('refuses a wrong secret', async () => {
    const answer = await call({ secret: 'not-the-secret' });
    expect(answer.status).toBe(403);
    expect(answer.type).toMatch(/^InvalidSignatureException:/);
    expect(answer.body).toEqual({ message: expect.stringContaining('does not match the signature you provided') });
  });

  it('refuses an access key it does not know', async () => {
    const answer = await call({ accessKeyId: 'AKIAUNKNOWN000000000' });
    expect(answer.status).toBe(403);
    expect(answer.type).toMatch(/^UnrecognizedClientException:/);
    expect(answer.body).toEqual({ message: 'The security token included in the request is invalid.' });
  });

  it('refuses a signature scoped to another region', async () => {
    const answer = await call({ region: 'eu-west-1' });
    expect(answer.status).toBe(403);
    expect(answer.type).toMatch(/^InvalidSignatureException:/);
    expect(answer.body.message).toContain('Credential should be scoped to a valid region');
  });

  it('refuses a date more than five minutes off', async () => {
    const stale = await call({ date: new Date(Date.now() - 6 * 60 * 1000) });
    expect(stale.status).toBe(403);
    expect(stale.type).toMatch(/^InvalidSignatureException:/);
    expect(stale.body.message).toMatch(/^Signature expired: \d{8}T\d{6}Z is now earlier than/);
    const early = await call({ date: new Date(Date.now() + 6 * 60 * 1000) });
    expect(early.status).toBe(403);
    expect(early.body.message).toMatch(/^Signature not yet current/);
    const skewed = await call({ date: new Date(Date.now() - 4 * 60 * 1000) });
    expect(skewed.status).toBe(200);
  });

  it('refuses a body changed after signing', async () => {
    const answer = await call({ sentBody: BODY.replace('Hi.', 'Ho.') });
    expect(answer.status).toBe(403);
    expect(answer.type).toMatch(/^InvalidSignatureException:/);
  });

  it("refuses a declared payload hash that is not the body's", async () => {
    const answer = await call({ extraHeaders: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toContain('x-amz-content-sha256');
  });

  it('refuses an unsigned request', async () => {
    const response = await fetch(new URL(PATH, base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toMatch(/^MissingAuthenticationTokenException:/);
  });

  it('is refused through the SDK too, which names the exception', async () => {
    const client = new BedrockRuntimeClient({
      region: BEDROCK_SANDBOX_REGION,
      endpoint: `${base.origin}/bedrock`,
      credentials: { accessKeyId: BEDROCK_TEST_ACCESS_KEY_ID, secretAccessKey: 'wrong' },
      maxAttempts: 1,
      requestHandler: new NodeHttpHandler(),
    });
    const error = (await client
      .send(new ConverseCommand({ modelId: 'anthropic.claude-sonnet-4-20250514-v1:0', messages: [{ role: 'user', content: [{ text: 'Hi.' }] }] }))
      .catch((e: unknown) => e)) as { name: string; $metadata: { httpStatusCode: number } };
    client.destroy();
    expect(error.name).toBe('InvalidSignatureException');
    expect(error.$metadata.httpStatusCode).toBe(403);
  });
});
