import { pollDelayMs } from './upstream-backoff';

describe('pollDelayMs', () => {
  it('polls at the base interval until the upstream refuses, then doubles per refusal up to the cap', () => {
    expect(pollDelayMs(0, null, 1000, 60_000)).toBe(1000);
    expect(pollDelayMs(1, null, 1000, 60_000)).toBe(2000);
    expect(pollDelayMs(3, null, 1000, 60_000)).toBe(8000);
    expect(pollDelayMs(40, null, 1000, 60_000)).toBe(60_000);
  });

  it("waits what the upstream's Retry-After asks, within the base and the cap", () => {
    expect(pollDelayMs(1, 30, 1000, 60_000)).toBe(30_000);
    expect(pollDelayMs(1, 0, 1000, 60_000)).toBe(1000);
    expect(pollDelayMs(1, 3600, 1000, 60_000)).toBe(60_000);
  });
});
