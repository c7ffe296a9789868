import { z } from 'zod';
import { InputSlug, printableText } from '../inputs/input-text.schema';

// Outbound webhooks: the messages and views of their admin subjects (secrets, deliveries, redelivery).

export const WebhookSecretRotatedEvent = z.object({ tenantId: z.uuid() });
export type WebhookSecretRotatedEvent = z.infer<typeof WebhookSecretRotatedEvent>;

export const WebhookDeliveryStatus = z.enum(['pending', 'delivered', 'dead']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookAttemptOutcome = z.enum(['delivered', 'failed', 'timeout', 'refused']);
export type WebhookAttemptOutcome = z.infer<typeof WebhookAttemptOutcome>;

export const WebhookSecretRotateRequest = z.object({
  tenant: InputSlug,
  /** End every earlier secret now instead of after its grace window (a leaked secret). */
  revokePrevious: z.boolean().default(false),
});
export type WebhookSecretRotateRequest = z.infer<typeof WebhookSecretRotateRequest>;
/** What the admin API sends the webhook service once it has found the tenant. */
export const WebhookSecretRotateMessage = WebhookSecretRotateRequest.extend({ tenantId: z.uuid() });
export type WebhookSecretRotateMessage = z.infer<typeof WebhookSecretRotateMessage>;

export const WebhookSecretView = z.object({
  tenant: z.string(),
  /** `whsec_` + base64: shown once, at creation or rotation. */
  secret: z.string(),
  createdAt: z.string(),
  /** Until when the secret it replaced still signs beside it (null: there was none; now: revoked). */
  previousValidUntil: z.string().nullable(),
});
export type WebhookSecretView = z.infer<typeof WebhookSecretView>;

export const WebhookDeliveriesRequest = z.object({ task: printableText(128).min(1) }).strict();
export type WebhookDeliveriesRequest = z.infer<typeof WebhookDeliveriesRequest>;

export const WebhookAttemptView = z.object({
  attempt: z.number().int(),
  outcome: WebhookAttemptOutcome,
  responseStatus: z.number().int().nullable(),
  latencyMs: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string(),
  nextAttemptAt: z.string().nullable(),
});
export type WebhookAttemptView = z.infer<typeof WebhookAttemptView>;

export const WebhookDeliveryView = z.object({
  id: z.string(),
  taskId: z.string(),
  eventType: z.string(),
  url: z.string(),
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  history: z.array(WebhookAttemptView),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

export const WebhookDeliveryList = z.object({ data: z.array(WebhookDeliveryView) });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

export const WebhookRedeliverRequest = z.object({ id: z.string().regex(/^msg_[A-Za-z0-9]{1,64}$/, 'a delivery id (msg_…)') });
export type WebhookRedeliverRequest = z.infer<typeof WebhookRedeliverRequest>;
