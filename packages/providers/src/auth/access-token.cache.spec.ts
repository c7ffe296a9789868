import { GatewayError } from '@gateway/contracts';
import { AccessTokenCache, type AccessToken } from './access-token.cache';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

const failure = (cause: unknown) => new GatewayError('upstream_error', `token failed: ${(cause as Error).message}`, null, 502);

describe('AccessTokenCache', () => {
  it('serves a fresh token at once, without a promise, and renews five minutes before expiry', async () => {
    const time = clock();
    let issued = 0;
    const fetchToken = jest.fn(async (): Promise<AccessToken> => ({ token: `t${++issued}`, expiresOnTimestamp: time.now() + 3_600_000 }));
    const cache = new AccessTokenCache(fetchToken, failure, { now: time.now });
    await expect(cache.token()).resolves.toBe('t1');
    expect(cache.token()).toBe('t1');
    time.advance(3_600_000 - 300_001);
    expect(cache.token()).toBe('t1');
    time.advance(2);
    // Inside the renewal window: the still-valid token answers at once while one renewal runs.
    expect(cache.token()).toBe('t1');
    expect(cache.token()).toBe('t1');
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(fetchToken).toHaveBeenCalledTimes(2);
    expect(cache.token()).toBe('t2');
  });

  it('shares one renewal among every caller once the token has expired', async () => {
    const time = clock();
    let release: (token: AccessToken) => void = () => undefined;
    const fetchToken = jest.fn(() => new Promise<AccessToken>((resolve) => (release = resolve)));
    const cache = new AccessTokenCache(fetchToken, failure, { now: time.now });
    const waiting = Array.from({ length: 200 }, () => cache.token());
    release({ token: 'shared', expiresOnTimestamp: time.now() + 60_000 });
    await expect(Promise.all(waiting)).resolves.toEqual(Array.from({ length: 200 }, () => 'shared'));
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('renews at half the lifetime of a token shorter than the margin', async () => {
    const time = clock();
    let issued = 0;
    const cache = new AccessTokenCache(async () => ({ token: `t${++issued}`, expiresOnTimestamp: time.now() + 10_000 }), failure, { now: time.now });
    await cache.token();
    time.advance(4_999);
    expect(cache.token()).toBe('t1');
    time.advance(6_000);
    await expect(cache.token()).resolves.toBe('t2');
  });

  it('turns a failing token endpoint into the given GatewayError for every waiter, and tries again on the next call', async () => {
    let attempts = 0;
    const cache = new AccessTokenCache(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('endpoint down');
      return { token: 'ok', expiresOnTimestamp: Date.now() + 60_000 };
    }, failure);
    const [first, second] = [cache.token(), cache.token()];
    await expect(first).rejects.toMatchObject({ code: 'upstream_error', message: 'token failed: endpoint down' });
    await expect(second).rejects.toBeInstanceOf(GatewayError);
    await expect(cache.token()).resolves.toBe('ok');
    expect(attempts).toBe(2);
  });
});
