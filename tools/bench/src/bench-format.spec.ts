import { ms, signed, signedMs } from './bench-format';

describe('bench table formatting', () => {
  it('shows the sign of a difference either way, once', () => {
    expect(signed(0.4234)).toBe('+0.42');
    expect(signed(-0.0123)).toBe('-0.01');
    expect(signed(0)).toBe('+0.00');
    expect(signedMs(-0.0123, 3)).toBe('-0.012 ms');
    expect(signedMs(1.5)).toBe('+1.50 ms');
  });

  it('prints milliseconds with the digits asked for', () => {
    expect(ms(0.12345)).toBe('0.12 ms');
    expect(ms(0.12345, 3)).toBe('0.123 ms');
  });
});
