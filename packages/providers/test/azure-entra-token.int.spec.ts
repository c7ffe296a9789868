// Entra ID tokens through the auth seam, against the sandbox's identity platform with a real
// ClientSecretCredential: renewed before expiry, one renewal for many calls at expiry, and a token
// endpoint that fails answered as a 502 naming the provider, never the secret.
import { GatewayError, statusForCode, type AzureEntraSettings } from '@gateway/contracts';
import { AzureEntraAuth, closeUpstreamConnections, readBodyJson, sendUpstream, toAzureUpstream, type ChannelTarget, type UpstreamRequest } from '../src';
import { azureSandbox } from './support/azure-sandbox';

const sandbox = azureSandbox();
const SECRET_ENV = 'AZURE_SANDBOX_CLIENT_SECRET';
const env = { [SECRET_ENV]: 'sandbox-client-secret' };

afterAll(async () => closeUpstreamConnections());

function entra(): AzureEntraSettings {
  return { tenantId: 'sandbox-tenant', clientId: 'sandbox-client', clientSecretEnv: SECRET_ENV, authorityHost: sandbox.authority };
}

function channel(providerId: string): ChannelTarget {
  return {
    id: `ch-${providerId}`,
    providerId,
    protocol: 'azure-openai',
    baseUrl: `${sandbox.base}/azure`,
    apiKey: null,
    upstreamModel: 'sandbox-gpt',
    priority: 0,
    weight: 1,
    settings: { apiVersion: '2024-10-21', paths: 'deployments', entra: entra() },
  };
}

function auth(providerId: string, secrets: Record<string, string> = env): AzureEntraAuth {
  return new AzureEntraAuth(providerId, entra(), { env: secrets, credential: { tlsOptions: { ca: sandbox.ca }, retryOptions: { maxRetries: 0 } } });
}

function chatCall(target: ChannelTarget): UpstreamRequest {
  return toAzureUpstream('chat', { model: 'public', messages: [{ role: 'user', content: 'hello' }] }, target, { stream: false });
}

function bearerOf(request: UpstreamRequest): string {
  return request.headers.authorization!.replace(/^Bearer /, '');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Entra ID tokens through the auth seam', () => {
  afterEach(async () => sandbox.identity({ expiresIn: 3600, failWith: null }));

  it('adds a bearer token the sandbox accepts, and reuses it without waiting', async () => {
    const target = channel('azure-reuse');
    const entraAuth = auth(target.providerId);
    const before = await sandbox.issued();
    const first = await entraAuth.authorize(chatCall(target));
    expect(first.headers['api-key']).toBeUndefined();
    const response = await sendUpstream(first);
    expect(response.status).toBe(200);
    expect(await readBodyJson(response.body)).toMatchObject({ choices: [{ message: { content: 'You said: hello' } }] });
    const again = entraAuth.authorize(chatCall(target));
    expect(again).not.toBeInstanceOf(Promise);
    expect(bearerOf(again as UpstreamRequest)).toBe(bearerOf(first));
    expect((await sandbox.issued()) - before).toBe(1);
  });

  it('renews a token before it expires, while calls keep the one still valid', async () => {
    await sandbox.identity({ expiresIn: 8 });
    const target = channel('azure-renew');
    const entraAuth = auth(target.providerId);
    const before = await sandbox.issued();
    const first = bearerOf(await entraAuth.authorize(chatCall(target)));
    // Past half the eight-second lifetime: still valid, so the call goes at once with it and one renewal starts.
    await sleep(4300);
    const during = entraAuth.authorize(chatCall(target));
    expect(during).not.toBeInstanceOf(Promise);
    expect(bearerOf(during as UpstreamRequest)).toBe(first);
    expect((await sendUpstream(during as UpstreamRequest)).status).toBe(200);
    for (let waited = 0; (await sandbox.issued()) - before < 2 && waited < 3000; waited += 50) await sleep(50);
    const renewed = entraAuth.authorize(chatCall(target));
    expect(renewed).not.toBeInstanceOf(Promise);
    expect(bearerOf(renewed as UpstreamRequest)).not.toBe(first);
    expect((await sandbox.issued()) - before).toBe(2);
  });

  it('lets 200 concurrent calls at expiry share exactly one renewal', async () => {
    await sandbox.identity({ expiresIn: 2 });
    const target = channel('azure-burst');
    const entraAuth = auth(target.providerId);
    await entraAuth.authorize(chatCall(target));
    // Well past the two-second lifetime (the identity library keeps expiry times in whole seconds), so every call waits.
    await sleep(3200);
    // The renewed token lives long, so the 200 calls it carries are not judged by how fast this machine sends them.
    await sandbox.identity({ expiresIn: 3600 });
    const before = await sandbox.issued();
    const requests = await Promise.all(Array.from({ length: 200 }, () => entraAuth.authorize(chatCall(target))));
    expect(new Set(requests.map(bearerOf)).size).toBe(1);
    const statuses = await Promise.all(
      requests.map(async (request) => {
        const response = await sendUpstream(request);
        response.body.resume();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await sandbox.issued()) - before).toBe(1);
  });

  it('answers a failing token endpoint with a 502 naming the provider and never the secret', async () => {
    await sandbox.identity({ failWith: 503 });
    const target = channel('azure-broken');
    const entraAuth = auth(target.providerId);
    const failure = await Promise.resolve()
      .then(() => entraAuth.authorize(chatCall(target)))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    const error = failure as GatewayError;
    expect(error.code).toBe('upstream_error');
    expect(statusForCode(error.code)).toBe(502);
    expect(error.message).toContain('"azure-broken"');
    expect(error.message).not.toContain('sandbox-client-secret');
  });

  it('names the missing secret variable, not a value, when the environment lacks it', async () => {
    const target = channel('azure-unset');
    const failure = await Promise.resolve()
      .then(() => auth(target.providerId, {}).authorize(chatCall(target)))
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'upstream_error',
      message: expect.stringContaining(`"azure-unset" has no client secret: the environment variable ${SECRET_ENV}`),
    });
  });
});
