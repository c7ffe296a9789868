import { KEY_PREFIX, type BillingMode } from '@gateway/contracts';
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_BODY_LENGTH = 48;
// Bytes at or above 248 (= 4 × 62) are dropped so every character is equally likely.
const UNBIASED_LIMIT = 248;

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new plain key: the kind's prefix, then 48 random base62 characters. */
export function generateKey(kind: BillingMode): string {
  return KEY_PREFIX[kind] + randomBase62(KEY_BODY_LENGTH);
}

/** What we store and look keys up by: the sha256 of the plain key, hex. */
export function hashKey(plainKey: string): string {
  return createHash('sha256').update(plainKey).digest('hex');
}

/** The only form later views show, e.g. `sk-plan-Ab3d…x9Z2`. */
export function maskKey(plainKey: string, kind: BillingMode): string {
  const body = plainKey.slice(KEY_PREFIX[kind].length);
  return `${KEY_PREFIX[kind]}${body.slice(0, 4)}…${body.slice(-4)}`;
}

export interface IssuedKey {
  plain: string;
  hash: string;
  masked: string;
}

export function issueKey(kind: BillingMode): IssuedKey {
  const plain = generateKey(kind);
  return { plain, hash: hashKey(plain), masked: maskKey(plain, kind) };
}
