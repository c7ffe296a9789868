import { estimateInputTokens } from '@gateway/billing';

/** What an assistant's instructions or a thread's messages take: bytes stored, and an upper bound of the prompt tokens they become. */
export interface StoredSize {
  bytes: bigint;
  tokens: bigint;
}

export const NO_SIZE: StoredSize = { bytes: 0n, tokens: 0n };

/** The size of what reaches a run's prompt, as JSON (roles and part types count: they are prompt tokens too). */
export function storedSizeOf(value: unknown): StoredSize {
  if (value === undefined || value === null) return NO_SIZE;
  const json = JSON.stringify(value) ?? '';
  return { bytes: BigInt(Buffer.byteLength(json)), tokens: BigInt(estimateInputTokens(value)) };
}

/** Of an assistant: its instructions and tool definitions (the prompt every run on it starts with). */
export function assistantSizeOf(body: { instructions?: string | null; tools?: unknown }): StoredSize {
  return storedSizeOf([body.instructions ?? null, body.tools ?? null].filter((part) => part !== null));
}

export function plusSize(a: StoredSize, b: StoredSize): StoredSize {
  return { bytes: a.bytes + b.bytes, tokens: a.tokens + b.tokens };
}
