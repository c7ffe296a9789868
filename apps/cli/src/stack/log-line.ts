/**
 * The apps write JSON lines (pino); `gatewayctl up` shows them as short readable lines: time, level,
 * message, then the other fields as key=value. Anything that is not a JSON object passes unchanged.
 */
const HIDDEN = new Set(['app', 'pid', 'hostname', 'time', 'level', 'msg', 'context', 'reqId']);
const NUMERIC_LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

function levelOf(value: unknown): string {
  if (typeof value === 'number') return NUMERIC_LEVELS[value] ?? String(value);
  return typeof value === 'string' ? value : 'info';
}

function timeOf(value: unknown): string {
  const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date();
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(11, 23);
}

function show(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

export function formatLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return line;
  const fields = Object.entries(record)
    .filter(([key, value]) => !HIDDEN.has(key) && value !== undefined && value !== null)
    .map(([key, value]) => `${key}=${show(value)}`);
  const context = typeof record.context === 'string' ? `${record.context}: ` : '';
  const message = typeof record.msg === 'string' ? record.msg : '';
  return [timeOf(record.time), levelOf(record.level).toUpperCase().padEnd(5), `${context}${message}`, ...fields].filter((part) => part !== '').join(' ');
}
