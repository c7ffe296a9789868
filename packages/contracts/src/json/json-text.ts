/**
 * Deeper than any real request: a tool's JSON schema nests some 20–30 levels. Thousands of levels
 * parse, then overflow the stack of whatever walks the value next (JSON.stringify, zod).
 */
export const MAX_JSON_DEPTH = 64;

/** Whether brackets nest deeper than `max` outside strings: one pass over the text, before JSON.parse. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a UTF-16 surrogate without its pair: it has no UTF-8 form, and Postgres refuses it. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
