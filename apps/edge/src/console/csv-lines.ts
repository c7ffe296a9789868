/**
 * One CSV line (RFC 4180 quoting, CRLF). A cell beginning with `=`, `+`, `-`, `@`, tab or carriage return
 * gets a leading quote mark whatever follows (OWASP's rule), so no exported value can become a formula.
 */
export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map((value) => csvCell(value === null || value === undefined ? '' : String(value))).join(',')}\r\n`;
}

function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
