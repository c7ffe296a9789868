import { lockoutSeconds } from './lockout';

describe('lockoutSeconds', () => {
  const policy = { threshold: 5, baseSeconds: 30, maxSeconds: 900 };

  it('does not lock below the threshold', () => {
    expect([0, 1, 4].map((n) => lockoutSeconds(n, policy))).toEqual([0, 0, 0]);
  });

  it('doubles from the base at each failure past the threshold, up to the cap', () => {
    expect([5, 6, 7, 8, 9, 10, 11].map((n) => lockoutSeconds(n, policy))).toEqual([30, 60, 120, 240, 480, 900, 900]);
    expect(lockoutSeconds(10_000, policy)).toBe(900);
  });
});
