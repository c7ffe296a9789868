import { randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A fresh per-tenant signing secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks writes them. */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/** The key bytes of a `whsec_` secret. */
export function secretKeyBytes(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}
