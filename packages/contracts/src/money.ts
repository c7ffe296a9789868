import { z } from 'zod';

export const MICROS_PER_UNIT = 1_000_000n;

/** "10.00", "0.000001", 10 → integer micro-units; never goes through a float. */
export function parseMoneyToMicros(value: string | number): bigint {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) throw new Error(`"${text}" is not an amount with at most 6 decimals`);
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(6, '0'));
  return whole * MICROS_PER_UNIT + fraction;
}

/** Micro-units → "12.345600" style decimal string. */
export function formatMicros(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / MICROS_PER_UNIT}.${(abs % MICROS_PER_UNIT).toString().padStart(6, '0')}`;
}

/**
 * A decimal amount as people read it: "12.345600" → "12.3456", "0.000008" → "0.000008", "3.000000" →
 * "3.00". At least two decimals, trailing zeros past them dropped, never rounded: an amount that is not
 * zero never reads 0.00.
 */
export function displayMoney(decimal: string): string {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** Micro-units ("-1234500" or -1234500n) as displayMoney shows them ("-1.2345"): exact, no floating point on money. */
export function displayMicros(micros: bigint | string): string {
  return displayMoney(formatMicros(BigInt(micros)));
}

/**
 * The largest amount an operator may write (a top-up, a price, a plan's credit): 1e9 units, 1e15
 * micro-units. Far above any real amount, and thousands of times below what a Redis or Postgres
 * int64 holds (9.2e18), so sums and products of bounded amounts stay exact.
 */
export const MAX_MONEY_MICROS = 1_000_000_000n * MICROS_PER_UNIT;

/** An amount as written in config or on the command line, parsed to micro-units. */
export const MoneyAmount = z.union([z.string(), z.number().nonnegative()]).transform((value, ctx) => {
  try {
    const micros = parseMoneyToMicros(value);
    if (micros > MAX_MONEY_MICROS) {
      ctx.addIssue({ code: 'custom', message: `amount above the maximum of ${formatMicros(MAX_MONEY_MICROS)}` });
      return z.NEVER;
    }
    return micros;
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/** Micro-units travel as decimal integer strings (JSON has no BigInt). */
export const MicrosString = z.string().regex(/^-?\d+$/);
