/**
 * One CSV line (RFC 4180 quoting, CRLF). A cell a spreadsheet would run as a formula (=, +, @, or - not
 * starting a number) is prefixed with a quote mark, so an exported model name cannot become one.
 */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map((value) => csvCell(value === null || value === undefined ? '' : String(value))).join(',')}\r\n`;
}

function csvCell(value: string): string {
  const safe = /^[=+@\t\r]|^-(?![\d.])/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
