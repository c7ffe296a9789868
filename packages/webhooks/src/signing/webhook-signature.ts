import { createHmac } from 'node:crypto';
import { secretKeyBytes } from './webhook-secret';

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` under one secret. */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKeyBytes(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The Standard Webhooks headers of one attempt. Every secret that still signs (the current one and,
 * during a rotation's grace window, the one before) adds its signature, space-separated, so a
 * receiver verifies with whichever it holds.
 */
export function signWebhook(secrets: readonly string[], id: string, timestampSeconds: number, body: string): WebhookHeaders {
  if (secrets.length === 0) throw new Error('a webhook needs at least one signing secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, id, timestampSeconds, body)).join(' '),
  };
}
