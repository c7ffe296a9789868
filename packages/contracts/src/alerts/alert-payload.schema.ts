import { z } from 'zod';
import { BudgetMode, BudgetPeriod, BudgetScope } from '../budgets/budget.schema';
import { MicrosString } from '../money';

// What a tenant's endpoint receives: `{type, timestamp, data}`, signed with the tenant's webhook secret.

export const BudgetThresholdData = z.object({
  tenant: z.string(),
  scope: BudgetScope,
  /** The key's id (key budgets); null for a project's. */
  key: z.string().nullable(),
  project: z.string(),
  amount: z.string(),
  amountMicros: MicrosString,
  /** Charged and still held by running requests, in the period. */
  used: z.string(),
  usedMicros: MicrosString,
  /** The threshold reached, percent of the amount. */
  share: z.number().int(),
  period: BudgetPeriod,
  mode: BudgetMode,
  periodStart: z.string().nullable(),
  resetsAt: z.string().nullable(),
});
export type BudgetThresholdData = z.infer<typeof BudgetThresholdData>;

export const BalanceLowData = z.object({
  tenant: z.string(),
  balance: z.string(),
  balanceMicros: MicrosString,
  threshold: z.string(),
  thresholdMicros: MicrosString,
});
export type BalanceLowData = z.infer<typeof BalanceLowData>;

export const QuotaLowData = z.object({
  tenant: z.string(),
  unit: z.enum(['micros', 'requests']),
  limit: z.string(),
  used: z.string(),
  left: z.string(),
  /** The share of the quota left below which the alert fires, percent. */
  share: z.number().int(),
  periodStart: z.string(),
  resetsAt: z.string(),
});
export type QuotaLowData = z.infer<typeof QuotaLowData>;

export const AlertPayload = z.discriminatedUnion('type', [
  z.object({ type: z.literal('budget.threshold_reached'), timestamp: z.string(), data: BudgetThresholdData }),
  z.object({ type: z.literal('balance.low'), timestamp: z.string(), data: BalanceLowData }),
  z.object({ type: z.literal('quota.low'), timestamp: z.string(), data: QuotaLowData }),
]);
export type AlertPayload = z.infer<typeof AlertPayload>;
