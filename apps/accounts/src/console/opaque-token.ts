import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes as base64url (43 characters): invite links, session cookies, CSRF tokens, OIDC state. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored and looked up by this hash only; the edge hashes the cookie the same way. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
