import { AuthFailureLimiter } from './auth-failure-limiter';

describe('AuthFailureLimiter', () => {
  let now = 5_000_000;
  const clock = () => now;

  it('refuses an address after its failures of the minute, until the minute ends', () => {
    const limiter = new AuthFailureLimiter(3, 100, clock);
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds('10.0.0.1')).toBeNull();
      limiter.record('10.0.0.1');
    }
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(60);
    expect(limiter.retryAfterSeconds('10.0.0.2')).toBeNull();
    now += 59_500;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(1);
    now += 500;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBeNull();
  });

  it('does nothing with a limit of 0', () => {
    const limiter = new AuthFailureLimiter(0, 100, clock);
    for (let i = 0; i < 10; i++) limiter.record('a');
    expect(limiter.retryAfterSeconds('a')).toBeNull();
  });
});
