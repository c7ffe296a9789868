// Simulated reasoning: a deterministic thought about the prompt, its token count, and a signature that
// proves a thought sent back on a later turn is the one this sandbox gave (Anthropic refuses altered ones).
import { countTokens, hash32 } from './tokenizer';

export interface Thought {
  text: string;
  signature: string;
  tokens: number;
}

const SIGNING_SALT = 'sandbox-thought:';

export function signThought(text: string): string {
  return `sig_${hash32(SIGNING_SALT + text).toString(36)}${hash32(text + SIGNING_SALT).toString(36)}`;
}

export function isSignedThought(text: string, signature: string): boolean {
  return signThought(text) === signature;
}

/** The thought behind an answer to `prompt`, cut to `budget` tokens when one is given. */
export function thinkAbout(prompt: string, budget?: number): Thought {
  let text = `The user asked: ${prompt}. I will answer plainly.`;
  const words = text.split(' ');
  while (budget !== undefined && budget > 0 && countTokens(text) > budget && words.length > 1) {
    words.pop();
    text = words.join(' ');
  }
  return { text, signature: signThought(text), tokens: countTokens(text) };
}
