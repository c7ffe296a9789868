import { z } from 'zod';
import { InputSlug, printableText } from '../inputs/input-text.schema';
import { MicrosString, MoneyAmount } from '../money';

// Account alerts: where a tenant receives them (its webhook endpoint), when they fire (its settings) and
// what was sent (the alert list).

/** The alert types a tenant can receive. */
export const ALERT_TYPES = ['budget.threshold_reached', 'balance.low', 'quota.low'] as const;
export const AlertType = z.enum(ALERT_TYPES);
export type AlertType = z.infer<typeof AlertType>;

/** `*`, `budget.*`, or one type (`balance.low`): which alerts an endpoint receives. */
export const AlertEventPattern = z
  .string()
  .regex(/^(\*|(budget|balance|quota)\.(\*|[a-z_]+))$/, 'an event pattern such as budget.*, balance.low or *')
  .refine((pattern) => !/^[a-z]+\.[a-z_]+$/.test(pattern) || (ALERT_TYPES as readonly string[]).includes(pattern), 'not an alert type');

/** Whether an endpoint listening to `patterns` receives alerts of `type`. */
export function alertMatches(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => pattern === '*' || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))));
}

export const WebhookEndpointSetRequest = z
  .object({
    tenant: InputSlug,
    url: printableText(2048).min(1),
    events: z.array(AlertEventPattern).min(1).max(10).default(['*']),
  })
  .strict();
export type WebhookEndpointSetRequest = z.input<typeof WebhookEndpointSetRequest>;
/** As parsed: the events filled in. */
export type WebhookEndpointSetMessage = z.output<typeof WebhookEndpointSetRequest>;

export const WebhookEndpointShowRequest = z.object({ tenant: InputSlug }).strict();
export type WebhookEndpointShowRequest = z.infer<typeof WebhookEndpointShowRequest>;

export const WebhookEndpointView = z.object({
  tenant: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  updatedAt: z.string(),
});
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

/** `endpoint: null`: the tenant's alerts are recorded, not delivered. */
export const WebhookEndpointShowReply = z.object({ endpoint: WebhookEndpointView.nullable() });
export type WebhookEndpointShowReply = z.infer<typeof WebhookEndpointShowReply>;

/** A tenant's thresholds; a field left out stays as it is, null turns that alert off. */
export const AlertSettingsSetRequest = z
  .object({
    tenant: InputSlug,
    /** `balance.low` fires when the prepaid balance falls below this amount. */
    balanceBelow: MoneyAmount.nullable().optional(),
    /** `quota.low` fires when a plan period's quota left falls below this share (percent). */
    quotaBelow: z.number().int().min(1).max(99).nullable().optional(),
  })
  .strict();
export type AlertSettingsSetRequest = z.input<typeof AlertSettingsSetRequest>;

export const AlertSettingsSetMessage = z.object({
  tenant: InputSlug,
  balanceBelowMicros: MicrosString.nullable().optional(),
  quotaBelow: z.number().int().min(1).max(99).nullable().optional(),
});
export type AlertSettingsSetMessage = z.infer<typeof AlertSettingsSetMessage>;

export const AlertSettingsShowRequest = z.object({ tenant: InputSlug }).strict();
export type AlertSettingsShowRequest = z.infer<typeof AlertSettingsShowRequest>;

export const AlertSettingsView = z.object({
  tenant: z.string(),
  balanceBelow: z.string().nullable(),
  balanceBelowMicros: MicrosString.nullable(),
  quotaBelow: z.number().int().nullable(),
});
export type AlertSettingsView = z.infer<typeof AlertSettingsView>;

export const AlertListRequest = z
  .object({
    tenant: InputSlug,
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict();
export type AlertListRequest = z.input<typeof AlertListRequest>;
export const AlertListMessage = z.object({ tenant: InputSlug, limit: z.number().int().min(1).max(500) });
export type AlertListMessage = z.infer<typeof AlertListMessage>;

export const AlertView = z.object({
  id: z.string(),
  type: AlertType,
  /** The webhook's subject: one per alert and period (`budget:key:<uuid>:d20261129:80`). */
  subject: z.string(),
  createdAt: z.string(),
  /** The URL it was sent to; null when the tenant had no endpoint taking it (recorded only). */
  url: z.string().nullable(),
  /** The delivery's status and webhook-id, when it was sent. */
  delivery: z.object({ id: z.string(), status: z.string(), attempts: z.number().int() }).nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type AlertView = z.infer<typeof AlertView>;

export const AlertListReply = z.array(AlertView);
export const AlertList = z.object({ data: AlertListReply });
export type AlertList = z.infer<typeof AlertList>;
