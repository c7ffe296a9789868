/** "12.345600" → "12.3456"; at least two decimals kept, trailing zeros dropped past them. */
export function money(decimal: string): string {
  const [whole, fraction = ''] = decimal.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${trimmed}`;
}
