import { z } from 'zod';
import { InputSlug, InputTime, printableText } from '../inputs/input-text.schema';
import { BillingMode } from '../accounts/key.schema';
import { PriceConfig } from '../admin/config.schema';
import { MicrosString, MoneyAmount } from '../money';
import { TenantLimitsConfig } from './limits.schema';

/** A price override for one model: any of the catalog's price fields, in micro-units. */
export const PriceOverride = z
  .object({
    inputPerMTok: MicrosString.optional(),
    outputPerMTok: MicrosString.optional(),
    perImage: MicrosString.optional(),
    perSecond: MicrosString.optional(),
    perTask: MicrosString.optional(),
    cachedInputPerMTok: MicrosString.optional(),
    cacheWritePerMTok: MicrosString.optional(),
    cacheHitPerMTok: MicrosString.optional(),
  })
  .strict();
export type PriceOverride = z.infer<typeof PriceOverride>;

export const SubscriptionProfile = z.object({
  kind: BillingMode,
  /** Credit per period in micro-units, or null when the quota counts requests (or there is none). */
  quotaMicros: MicrosString.nullable(),
  quotaRequests: z.number().int().positive().nullable(),
  periodSeconds: z.number().int().positive().nullable(),
  /** ISO time periods are counted from. */
  startsAt: z.string(),
  expiresAt: z.string().nullable(),
  priceOverrides: z.record(z.string(), PriceOverride),
});
export type SubscriptionProfile = z.infer<typeof SubscriptionProfile>;

export const BillingProfileRequest = z.object({ tenantId: z.string().min(1) });
export const BillingProfile = z.object({ tenantId: z.string(), billing: BillingMode, subscription: SubscriptionProfile.nullable() });
export type BillingProfile = z.infer<typeof BillingProfile>;

export const BalanceSeedRequest = z.object({ tenantId: z.string().min(1) });
export const BalanceSeedReply = z.object({ micros: MicrosString });

export const BillingConfigureRequest = z
  .object({
    tenant: InputSlug,
    limits: TenantLimitsConfig.nullable().optional(),
    /** A custom subscription's own quota: credit (decimal) or requests, per period. */
    quota: z
      .object({ credit: MoneyAmount.optional(), requests: z.number().int().positive().optional(), periodSeconds: z.number().int().positive() })
      .strict()
      .optional(),
    priceOverrides: z.record(z.string(), PriceConfig).optional(),
  })
  .strict();

/** The same request as it travels over NATS: micro-units as strings. */
export const BillingConfigureMessage = z.object({
  tenant: z.string().min(1),
  limits: TenantLimitsConfig.nullable().optional(),
  quota: z.object({ credit: MicrosString.optional(), requests: z.number().int().positive().optional(), periodSeconds: z.number().int().positive() }).optional(),
  priceOverrides: z.record(z.string(), PriceOverride).optional(),
});
export type BillingConfigureMessage = z.infer<typeof BillingConfigureMessage>;

/** Decimal prices become micro-unit strings, once: JSON cannot carry the parsed BigInts. */
export function billingConfigureMessageOf(request: z.output<typeof BillingConfigureRequest>): BillingConfigureMessage {
  const micros = (value: bigint | undefined) => (value === undefined ? undefined : value.toString());
  return {
    tenant: request.tenant,
    limits: request.limits,
    quota: request.quota && { credit: micros(request.quota.credit), requests: request.quota.requests, periodSeconds: request.quota.periodSeconds },
    priceOverrides:
      request.priceOverrides &&
      Object.fromEntries(
        Object.entries(request.priceOverrides).map(([model, prices]) => [
          model,
          Object.fromEntries(Object.entries(prices).flatMap(([field, value]) => (value === undefined ? [] : [[field, value.toString()]]))),
        ]),
      ),
  };
}

export const BillingConfigureReply = z.object({
  tenant: z.string(),
  limits: TenantLimitsConfig.nullable(),
  subscription: SubscriptionProfile.nullable(),
});

export const UsageGroupBy = z.enum(['model', 'key', 'project', 'day', 'kind']);
export const UsageSummaryRequest = z
  .object({
    tenant: InputSlug,
    since: InputTime.optional(),
    until: InputTime.optional(),
    by: UsageGroupBy.default('model'),
  })
  .strict();
export const UsageSummaryRow = z.object({
  group: z.string(),
  requests: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** Seconds, images and tasks metered (media and music tasks, audio). */
  seconds: z.number().optional(),
  images: z.number().int().optional(),
  tasks: z.number().int().optional(),
  /** What the ledger charged these requests, in micro-units and as a decimal. */
  costMicros: MicrosString,
  cost: z.string(),
});
/** A plan tenant's current quota window: what it used and has left, and what that usage would have cost. */
export const UsagePlanWindow = z.object({
  unit: z.enum(['micros', 'requests']),
  used: z.string(),
  limit: z.string(),
  left: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  /** The window's usage priced at the catalog's pay-as-you-go prices. */
  wouldCostMicros: MicrosString,
  wouldCost: z.string(),
});
export const UsageSummary = z.object({
  tenant: z.string(),
  since: z.string().nullable(),
  until: z.string().nullable().optional(),
  by: UsageGroupBy,
  rows: z.array(UsageSummaryRow),
  plan: z.array(UsagePlanWindow).optional(),
});
export type UsageSummary = z.infer<typeof UsageSummary>;

/** Find usage rows by the id a client logged (its x-request-id, not unique) or by the server's request id. */
export const UsageRequestsRequest = z
  .object({
    tenant: InputSlug,
    clientRequestId: printableText(128).min(1).optional(),
    requestId: printableText(128).min(1).optional(),
    /** A task, batch or run id, or a client's x-request-id: every usage record that belongs to it or that it names. */
    subjectId: printableText(128).min(1).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
  })
  .strict()
  .refine((r) => r.clientRequestId !== undefined || r.requestId !== undefined || r.subjectId !== undefined, {
    message: 'give clientRequestId, requestId or subjectId',
    path: ['clientRequestId'],
  });
export const UsageRequestRow = z.object({
  requestId: z.string(),
  clientRequestId: z.string().nullable(),
  keyId: z.string(),
  modelId: z.string(),
  route: z.string(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  outcome: z.string(),
  status: z.number().int(),
  at: z.string(),
  /** What the record bills, how it ended in the shared vocabulary, and the task, batch or run it belongs to. */
  kind: z.string().optional(),
  result: z.string().optional(),
  subjectId: z.string().nullable().optional(),
  /** What the ledger charged the request, in micro-units and as a decimal. */
  costMicros: MicrosString,
  cost: z.string(),
});
export const UsageRequests = z.object({ tenant: z.string(), rows: z.array(UsageRequestRow) });
export type UsageRequests = z.infer<typeof UsageRequests>;
export type UsageRequestsRequest = z.infer<typeof UsageRequestsRequest>;

/**
 * How a request's billing ends, decided where the request ran and carried on its durable usage event:
 * its own hold settled at `micros` (the rest goes back; usage above the hold is charged too, as an
 * overrun) or released whole, or, for a request admitted under a lease, `micros` drawn from that lease.
 */
export const HoldSettlement = z.discriminatedUnion('action', [
  z.object({ action: z.literal('settle'), micros: MicrosString }),
  z.object({ action: z.literal('release') }),
  /** `held`: what the request was admitted for; a charge above it is ledgered as an overrun. */
  z.object({ action: z.literal('draw'), lease: z.string().min(1), micros: MicrosString, held: MicrosString.optional() }),
]);
export type HoldSettlement = z.infer<typeof HoldSettlement>;

/** A lease whose requests have all ended, and what they were admitted for in total. */
export const LeaseClose = z.object({ lease: z.string().min(1), charged: MicrosString });
export type LeaseClose = z.infer<typeof LeaseClose>;
