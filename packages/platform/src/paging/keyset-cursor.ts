import { GatewayError, INPUT_YEARS, isPrintable } from '@gateway/contracts';

/** A keyset position for lists paged newest first: the last row's time, as Postgres printed it (microseconds kept), and its id. */
export interface KeysetPosition {
  at: string;
  id: string;
}

/** Opaque to the page: base64url of the position, handed back as `cursor` for the next page. */
export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): KeysetPosition | null {
  if (cursor === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      if (isTime(parsed[0]) && isPrintable(parsed[1]) && parsed[1].length <= 128) return { at: parsed[0], id: parsed[1] };
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw GatewayError.invalid('The cursor is not one this list gave out: start from the first page.', 'cursor');
}

/** An ISO time, or Postgres's text of a timestamp without zone (taken as UTC), within the years inputs may name. */
function isTime(text: string): boolean {
  if (text.length > 40 || !isPrintable(text)) return false;
  const at = Number.isNaN(Date.parse(text)) ? Date.parse(`${text.replace(' ', 'T')}Z`) : Date.parse(text);
  if (Number.isNaN(at)) return false;
  const year = new Date(at).getUTCFullYear();
  return year >= INPUT_YEARS.min && year <= INPUT_YEARS.max;
}
