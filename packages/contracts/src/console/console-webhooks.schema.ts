import { z } from 'zod';
import { WebhookDeliveryStatus, WebhookDeliveryView } from '../webhooks/webhook.schema';
import { printableText } from '../inputs/input-text.schema';

/** Shapes of the tenant console's webhook deliveries: every attempt of each, paged newest first; redeliver one. */

export const ConsoleDeliveriesQuery = z
  .object({
    status: WebhookDeliveryStatus.optional(),
    cursor: printableText(256).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();
export type ConsoleDeliveriesQuery = z.input<typeof ConsoleDeliveriesQuery>;
export const ConsoleDeliveriesMessage = ConsoleDeliveriesQuery.extend({ tenantId: z.uuid() });
export const ConsoleDeliveryPage = z.object({ data: z.array(WebhookDeliveryView), nextCursor: z.string().nullable() });
export type ConsoleDeliveryPage = z.infer<typeof ConsoleDeliveryPage>;
export const ConsoleDelivery = WebhookDeliveryView;

export const ConsoleDeliveryIdRequest = z.object({ id: z.string().regex(/^msg_[A-Za-z0-9]{1,64}$/, 'a delivery id (msg_…)') });
export const ConsoleRedeliverMessage = ConsoleDeliveryIdRequest.extend({ tenantId: z.uuid() });
