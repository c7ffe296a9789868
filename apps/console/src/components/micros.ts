import { money } from './money';

/** Micro-units ("-1234500") as a decimal amount ("-1.2345"), exact: no floating point on money. */
export function micros(value: string): string {
  const negative = value.startsWith('-');
  const digits = (negative ? value.slice(1) : value).padStart(7, '0');
  return `${negative ? '-' : ''}${money(`${digits.slice(0, -6)}.${digits.slice(-6)}`)}`;
}

/** The sum of micro-unit strings, as micro-units. */
export function sumMicros(values: readonly string[]): string {
  return values.reduce((total, value) => total + BigInt(value), 0n).toString();
}
