import { GatewayError } from '@gateway/contracts';
import { vertexAuthStep, withBearerToken } from './vertex-auth.step';
import { cachedTokenSource, type IssuedAccessToken, tokenFailure } from './vertex-token.source';

function issuer(lifetimeMs: number, clock: { now: number }) {
  let issued = 0;
  const issue = jest.fn(async (): Promise<IssuedAccessToken> => {
    issued += 1;
    await new Promise((resolve) => setImmediate(resolve));
    return { token: `token-${issued}`, expiresAtMs: clock.now + lifetimeMs };
  });
  return issue;
}

describe('cachedTokenSource', () => {
  it('serves the cached token until the renewal window, then renews once', async () => {
    const clock = { now: 1_000_000 };
    const issue = issuer(60_000, clock);
    const source = cachedTokenSource('vertex-main', issue, 10_000, () => clock.now);
    expect(await source.token()).toBe('token-1');
    clock.now += 49_000;
    expect(await source.token()).toBe('token-1');
    clock.now += 2_000;
    expect(await source.token()).toBe('token-2');
    expect(issue).toHaveBeenCalledTimes(2);
  });

  it('shares one renewal among many concurrent callers', async () => {
    const clock = { now: 0 };
    const issue = issuer(60_000, clock);
    const source = cachedTokenSource('vertex-main', issue, 10_000, () => clock.now);
    const tokens = await Promise.all(Array.from({ length: 200 }, () => source.token()));
    expect(new Set(tokens)).toEqual(new Set(['token-1']));
    clock.now += 55_000;
    const renewed = await Promise.all(Array.from({ length: 200 }, () => source.token()));
    expect(new Set(renewed)).toEqual(new Set(['token-2']));
    expect(issue).toHaveBeenCalledTimes(2);
  });

  it('turns a failed renewal into the provider upstream_error, and tries again on the next call', async () => {
    const clock = { now: 0 };
    let fail = true;
    const issue = jest.fn(async (): Promise<IssuedAccessToken> => {
      if (fail) throw Object.assign(new Error('invalid_grant: Invalid JWT Signature. assertion=eyJhbGciOi.secret'), { status: 400 });
      return { token: 'token-ok', expiresAtMs: clock.now + 60_000 };
    });
    const source = cachedTokenSource('vertex-main', issue, 10_000, () => clock.now);
    const failure = await source.token().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({
      code: 'upstream_error',
      message: 'Provider "vertex-main" could not get a Google access token: its token endpoint answered HTTP 400.',
    });
    expect((failure as Error).message).not.toContain('secret');
    fail = false;
    expect(await source.token()).toBe('token-ok');
  });

  it('names an unreachable endpoint or unreadable key without its details', () => {
    const error = tokenFailure('vertex-eu', new Error('ENOENT: /var/run/secrets/vertex/key.json'));
    expect(error.message).toBe(
      'Provider "vertex-eu" could not get a Google access token: its credentials could not be read or its token endpoint could not be reached.',
    );
  });
});

describe('the Vertex auth step', () => {
  it('adds the bearer token to the request it is given', async () => {
    const request = { method: 'POST' as const, url: 'https://vertex.example/x', headers: { 'content-type': 'application/json' }, body: '{}', stream: false };
    const step = vertexAuthStep({ token: async () => 'ya29.abc' });
    expect(await step(request)).toEqual(withBearerToken(request, 'ya29.abc'));
    expect((await step(request)).headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer ya29.abc' });
    expect(request.headers).toEqual({ 'content-type': 'application/json' });
  });
});
