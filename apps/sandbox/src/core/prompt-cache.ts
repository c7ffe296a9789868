// A simulated prompt cache: the first request with a given prefix writes it, later ones read it, as
// Anthropic's cache_control breakpoints and OpenAI's prompt_cache_key behave. Per process, bounded.
import { hash32 } from './tokenizer';

export interface CacheUse {
  read: number;
  write: number;
}

const CAPACITY = 10_000;
const seen = new Set<number>();

/** What serving `tokens` tokens of the prefix `key` costs the cache: written the first time, read after. */
export function usePromptCache(key: string, tokens: number): CacheUse {
  if (tokens <= 0) return { read: 0, write: 0 };
  const id = hash32(key);
  if (seen.has(id)) return { read: tokens, write: 0 };
  seen.add(id);
  if (seen.size > CAPACITY) seen.delete(seen.values().next().value!);
  return { read: 0, write: tokens };
}
