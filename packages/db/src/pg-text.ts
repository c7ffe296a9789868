/**
 * Text bound for Postgres. A `text` value cannot hold NUL, and a statement carrying one fails whole
 * ("invalid byte sequence for encoding UTF8: 0x00"), taking every row of its batch with it; a lone
 * UTF-16 surrogate has no UTF-8 form at all. Writers of rows from untrusted records pass every string
 * column through here.
 */
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Drops NUL characters and replaces lone surrogates with U+FFFD. */
export function pgText(value: string): string;
export function pgText(value: string | null | undefined): string | null;
export function pgText(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** A copy of `record` with pgText applied to each of its own string fields (other fields as they are). */
export function pgTextFields<T extends object>(record: T): T {
  const copy = { ...record } as Record<string, unknown>;
  for (const [name, value] of Object.entries(copy)) if (typeof value === 'string') copy[name] = pgText(value);
  return copy as T;
}

/**
 * Whether Postgres refused a statement because of the values it carried (SQLSTATE class 22, data
 * exception, or 23, integrity constraint violation) rather than because it was unreachable or busy:
 * only such a failure belongs to a record, and retrying that record alone can isolate it.
 */
export function isRecordError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

/**
 * A copy of a JSON value bound for a `jsonb` column with pgText applied to every string and key:
 * jsonb refuses `\u0000` and a lone surrogate escape ("unsupported Unicode escape sequence") as text does.
 */
export function pgJson<T>(value: T): T {
  if (typeof value === 'string') return pgText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => pgJson(item)) as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[pgText(key)] = pgJson(item);
    return copy as T;
  }
  return value;
}
