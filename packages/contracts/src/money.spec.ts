import { displayMicros, displayMoney, formatMicros, MAX_MONEY_MICROS, MoneyAmount, parseMoneyToMicros } from './money';

describe('money in micro-units', () => {
  it.each([
    ['10.00', 10_000_000n],
    ['0.000001', 1n],
    ['3', 3_000_000n],
    ['12.5', 12_500_000n],
  ])('parses %s exactly', (text, micros) => {
    expect(parseMoneyToMicros(text)).toBe(micros);
  });

  it('refuses more than six decimals, signs and words', () => {
    for (const bad of ['0.0000001', '-1', 'ten', '1e3', '']) expect(() => parseMoneyToMicros(bad)).toThrow();
  });

  it('formats back without floats', () => {
    expect(formatMicros(12_345_600n)).toBe('12.345600');
    expect(formatMicros(-1n)).toBe('-0.000001');
  });

  it('is a zod transform for config and CLI amounts', () => {
    expect(MoneyAmount.parse('0.10')).toBe(100_000n);
    expect(MoneyAmount.safeParse('abc').success).toBe(false);
  });

  it('bounds an amount at 1e9 units, far inside an int64 of micro-units', () => {
    expect(MoneyAmount.parse('1000000000')).toBe(MAX_MONEY_MICROS);
    for (const huge of ['1000000000.000001', '99999999999999999999999', 1e10]) {
      const result = MoneyAmount.safeParse(huge);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toContain('maximum of 1000000000.000000');
    }
  });
});

describe('displayMoney and displayMicros', () => {
  it('keeps every significant decimal and at least two, so a non-zero amount never reads 0.00', () => {
    expect(displayMicros(8n)).toBe('0.000008');
    expect(displayMicros('-1234500')).toBe('-1.2345');
    expect(displayMicros(3_000_000n)).toBe('3.00');
    expect(displayMicros(0n)).toBe('0.00');
    expect(displayMoney('12.345600')).toBe('12.3456');
    expect(displayMoney('7')).toBe('7.00');
  });

  it('never shows a non-zero amount as zero, for any micro-unit amount', () => {
    for (let micros = -2_000n; micros <= 2_000n; micros += 1n) {
      const shown = displayMicros(micros);
      expect(/^-?0\.0+$/.test(shown)).toBe(micros === 0n);
      expect(parseMoneyToMicros(shown.replace('-', '')) * (micros < 0n ? -1n : 1n)).toBe(micros);
    }
  });
});
