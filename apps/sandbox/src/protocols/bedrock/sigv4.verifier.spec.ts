// The verifier against requests signed by the SDK's signer at a fixed date: no clock, no network.
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { BEDROCK_SANDBOX_REGION, BEDROCK_TEST_ACCESS_KEY_ID, BEDROCK_TEST_SECRET_ACCESS_KEY } from './bedrock.keys';
import { verifySigV4, type ReceivedRequest } from './sigv4.verifier';

const SIGNED_AT = new Date('2026-01-15T10:00:00Z');
const PATH = `/bedrock/model/${encodeURIComponent('arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-v1:0')}/converse`;
const BODY = '{"messages":[]}';

async function signed(query = ''): Promise<ReceivedRequest> {
  const signer = new SignatureV4({
    credentials: { accessKeyId: BEDROCK_TEST_ACCESS_KEY_ID, secretAccessKey: BEDROCK_TEST_SECRET_ACCESS_KEY },
    region: BEDROCK_SANDBOX_REGION,
    service: 'bedrock',
    sha256: Sha256,
  });
  const request = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 8090,
      path: PATH,
      query: Object.fromEntries(new URLSearchParams(query)),
      headers: { host: '127.0.0.1:8090', 'content-type': 'application/json' },
      body: BODY,
    },
    { signingDate: SIGNED_AT },
  );
  return { method: 'POST', rawUrl: query ? `${PATH}?${query}` : PATH, headers: request.headers, body: Buffer.from(BODY) };
}

const at = (minutes: number) => new Date(SIGNED_AT.getTime() + minutes * 60_000);

describe('verifySigV4', () => {
  it('accepts the request as signed, an encoded ARN path and a query included', async () => {
    await expect(verifySigV4(await signed(), at(1))).resolves.toBeUndefined();
    await expect(verifySigV4(await signed('a=1&b=two%20words'), at(-4))).resolves.toBeUndefined();
  });

  it('refuses a signature older or newer than five minutes', async () => {
    await expect(verifySigV4(await signed(), at(6))).rejects.toMatchObject({
      status: 403,
      type: 'InvalidSignatureException',
      message: 'Signature expired: 20260115T100000Z is now earlier than 20260115T100100Z (20260115T100600Z - 5 min.)',
    });
    await expect(verifySigV4(await signed(), at(-6))).rejects.toMatchObject({
      type: 'InvalidSignatureException',
      message: expect.stringMatching(/^Signature not yet current/),
    });
  });

  it('refuses a changed path, query, signed header or body', async () => {
    const request = await signed('a=1');
    const mismatch = { status: 403, type: 'InvalidSignatureException', message: expect.stringContaining('does not match') };
    await expect(verifySigV4({ ...request, rawUrl: request.rawUrl.replace('converse', 'converse-stream') }, at(0))).rejects.toMatchObject(mismatch);
    await expect(verifySigV4({ ...request, rawUrl: request.rawUrl.replace('a=1', 'a=2') }, at(0))).rejects.toMatchObject(mismatch);
    await expect(verifySigV4({ ...request, headers: { ...request.headers, 'content-type': 'text/plain' } }, at(0))).rejects.toMatchObject(mismatch);
    await expect(verifySigV4({ ...request, body: Buffer.from('{"messages":[1]}') }, at(0))).rejects.toMatchObject(mismatch);
  });

  it('refuses a request with no or a malformed authorization', async () => {
    const request = await signed();
    const { authorization: _authorization, ...unsigned } = request.headers;
    await expect(verifySigV4({ ...request, headers: unsigned }, at(0))).rejects.toMatchObject({ type: 'MissingAuthenticationTokenException' });
    await expect(verifySigV4({ ...request, headers: { ...request.headers, authorization: 'Bearer x' } }, at(0))).rejects.toMatchObject({
      type: 'InvalidSignatureException',
    });
  });
});
