// Signing with the SDK's signer, and credentials memoized until shortly before they expire.
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity } from '@smithy/types';
import type { UpstreamRequest } from '../../provider.types';
import { bedrockCredentials, signBedrockRequest } from './bedrock-request.signer';

const credentials = { accessKeyId: 'AKIAEXAMPLE000000000', secretAccessKey: 'example-secret' };
const request: UpstreamRequest = {
  method: 'POST',
  url: 'https://bedrock-runtime.eu-west-1.amazonaws.com/model/eu.anthropic.claude-v1%3A0/converse',
  headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: '{"messages":[]}',
  stream: false,
};

describe('signBedrockRequest', () => {
  it('signs for bedrock in the region, over the encoded path and the body, leaving the host to the client', async () => {
    const signed = await signBedrockRequest(request, { region: 'eu-west-1', credentials });
    const date = signed.headers['x-amz-date']!;
    expect(signed.headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE000000000/${date.slice(0, 8)}/eu-west-1/bedrock/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(signed.headers).not.toHaveProperty('host');
    expect(signed.url).toBe(request.url);
    expect(signed.body).toBe(request.body);
    // The same signature as the signer computes over the request a server receives (the path double-encoded as AWS requires).
    const expected = await new SignatureV4({ credentials, region: 'eu-west-1', service: 'bedrock', sha256: Sha256 }).sign(
      {
        method: 'POST',
        protocol: 'https:',
        hostname: 'bedrock-runtime.eu-west-1.amazonaws.com',
        path: '/model/eu.anthropic.claude-v1%3A0/converse',
        query: {},
        headers: { ...request.headers, host: 'bedrock-runtime.eu-west-1.amazonaws.com' },
        body: request.body,
      },
      { signingDate: new Date(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`) },
    );
    expect(signed.headers.authorization).toBe(expected.headers.authorization);
  });

  it('adds the session token of temporary credentials', async () => {
    const signed = await signBedrockRequest(request, { region: 'eu-west-1', credentials: { ...credentials, sessionToken: 'token-1' } });
    expect(signed.headers['x-amz-security-token']).toBe('token-1');
    expect(signed.headers.authorization).toContain('x-amz-security-token');
  });

  it('refuses a streamed body it cannot hash', async () => {
    const { Readable } = await import('node:stream');
    await expect(signBedrockRequest({ ...request, body: Readable.from(['x']) }, { region: 'eu-west-1', credentials })).rejects.toThrow(/text or bytes/);
  });
});

describe('bedrockCredentials', () => {
  function counting(expiresInMs: number) {
    let calls = 0;
    const provider = async (): Promise<AwsCredentialIdentity> => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { ...credentials, sessionToken: `token-${calls}`, expiration: new Date(Date.now() + expiresInMs) };
    };
    return { provider, calls: () => calls };
  }

  it('fetches once for many concurrent callers while the credentials are fresh', async () => {
    const source = counting(60 * 60 * 1000);
    const memoized = bedrockCredentials(source.provider);
    const all = await Promise.all(Array.from({ length: 200 }, () => memoized()));
    expect(source.calls()).toBe(1);
    expect(new Set(all.map((identity) => identity.sessionToken))).toEqual(new Set(['token-1']));
    await memoized();
    expect(source.calls()).toBe(1);
  });

  it('fetches again once the credentials are within five minutes of expiring', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const start = Date.now();
      const source = counting(10 * 60 * 1000);
      const memoized = bedrockCredentials(source.provider);
      expect((await memoized()).sessionToken).toBe('token-1');
      jest.setSystemTime(start + 4 * 60 * 1000);
      expect((await memoized()).sessionToken).toBe('token-1');
      jest.setSystemTime(start + 6 * 60 * 1000);
      expect((await memoized()).sessionToken).toBe('token-2');
      expect(source.calls()).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
