import { RedisEnv } from '@gateway/platform';
import { z } from 'zod';

const Flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/** Settings of billing, shared by the services that reserve (chat) and the one that persists (accounts). */
export const BillingEnv = z.object({
  ...RedisEnv.shape,
  /** Off: requests are served without reserving or charging (for comparing cost in benchmarks). */
  BILLING_ENABLED: Flag.default(true),
  /** How long a hold outlives a request that never ended (its process died) before the sweeper frees it. */
  BILLING_HOLD_TTL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /**
   * Pay-as-you-go requests are admitted in memory under a balance lease holding this many times the
   * opening request's maximum cost (one Redis call per lease instead of per request); 0 turns leases off.
   */
  BILLING_LEASE_REQUESTS: z.coerce.number().int().min(0).max(1000).default(16),
  /**
   * How long a balance lease's hold lives unless its process renews it (every third of this while in use):
   * a lease of a process that died is back in the wallet this long after, plus one sweep.
   */
  BILLING_LEASE_TTL_MS: z.coerce.number().int().min(3000).default(60_000),
  /** How often accounts looks for expired holds. */
  BILLING_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(5000),
});
export type BillingEnv = z.infer<typeof BillingEnv>;
