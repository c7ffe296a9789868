import { ChannelBackoff } from './channel-backoff';

describe('ChannelBackoff', () => {
  it('doubles the wait with each failure in a row, up to five minutes, and forgets it on an answer', () => {
    const backoff = new ChannelBackoff(1000);
    expect(backoff.waitFor('a', 0)).toBe(0);
    expect(backoff.failed('a', undefined, 0)).toBe(1000);
    expect(backoff.waitFor('a', 400)).toBe(600);
    expect(backoff.waitFor('b', 400)).toBe(0);
    expect(backoff.failed('a', undefined, 0)).toBe(2000);
    expect(backoff.failed('a', undefined, 0)).toBe(4000);
    for (let i = 0; i < 20; i++) backoff.failed('a', undefined, 0);
    expect(backoff.waitFor('a', 0)).toBe(300_000);
    backoff.succeeded('a');
    expect(backoff.waitFor('a', 0)).toBe(0);
    expect(backoff.failed('a', undefined, 0)).toBe(1000);
  });

  it("waits at least what the upstream's Retry-After asks", () => {
    const backoff = new ChannelBackoff(1000);
    expect(backoff.failed('a', 30, 0)).toBe(30_000);
    expect(backoff.waitFor('a', 10_000)).toBe(20_000);
  });
});
