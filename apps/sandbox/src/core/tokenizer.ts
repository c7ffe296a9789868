// A deterministic stand-in for a real tokenizer: a token is a word or one punctuation mark,
// carrying the whitespace before it, so joining tokens gives back the (trimmed) text.

const TOKEN = /\s*(?:[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_])/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}

/** The first `limit` tokens of `text`, and whether anything was cut off. */
export function truncateTokens(text: string, limit: number | undefined): { text: string; tokens: string[]; truncated: boolean } {
  const tokens = tokenize(text);
  if (limit === undefined || tokens.length <= limit) return { text: tokens.join(''), tokens, truncated: false };
  const kept = tokens.slice(0, Math.max(0, limit));
  return { text: kept.join(''), tokens: kept, truncated: true };
}

/** A stable 32-bit hash (FNV-1a) used to derive ids, vectors and pixels from inputs. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded pseudo-random generator (mulberry32): same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
