import { nominalHorizonMs, retryDelayMs } from './retry-schedule';

const DEFAULTS = { baseMs: 2_000, maxMs: 3_600_000, maxAttempts: 35 };

describe('retry schedule', () => {
  it('doubles from the base, within ±20 % jitter', () => {
    expect(retryDelayMs(DEFAULTS, 1, () => 0.5)).toBe(2_000);
    expect(retryDelayMs(DEFAULTS, 2, () => 0.5)).toBe(4_000);
    expect(retryDelayMs(DEFAULTS, 5, () => 0.5)).toBe(32_000);
    expect(retryDelayMs(DEFAULTS, 3, () => 0)).toBe(6_400);
    expect(retryDelayMs(DEFAULTS, 3, () => 0.999999)).toBe(9_600);
  });

  it('never waits more than the cap', () => {
    expect(retryDelayMs(DEFAULTS, 20, () => 0.999999)).toBe(3_600_000);
    expect(retryDelayMs(DEFAULTS, 20, () => 0)).toBe(2_880_000);
  });

  it('stops after the last attempt', () => {
    expect(retryDelayMs(DEFAULTS, 34)).not.toBeNull();
    expect(retryDelayMs(DEFAULTS, 35)).toBeNull();
  });

  it('spans about a day at the defaults', () => {
    const hours = nominalHorizonMs(DEFAULTS) / 3_600_000;
    expect(hours).toBeGreaterThan(23);
    expect(hours).toBeLessThan(26);
  });
});
