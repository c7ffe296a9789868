/** One place that decides between machine output (--json) and the short human form. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
};

export function emit(io: Io, json: boolean, data: unknown, human: () => string): void {
  io.out(json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
}

/** Fixed-width columns for list output. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, col) => cell.padEnd(widths[col]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Comma-separated values (RFC 4180 quoting), for spreadsheets. */
export function csv(rows: string[][]): string {
  const cell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return rows.map((row) => row.map(cell).join(',')).join('\n');
}
