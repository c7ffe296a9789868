import { z } from 'zod';

/** Rate limits of one scope (a key or a whole tenant); an absent field means no limit of that kind. */
export const RateLimits = z
  .object({
    /** Requests per minute. */
    rpm: z.number().int().positive().optional(),
    /** Tokens per minute, estimated from the request body at admission. */
    tpm: z.number().int().positive().optional(),
    /** Requests in flight at once. */
    concurrency: z.number().int().positive().optional(),
  })
  .strict();
export type RateLimits = z.infer<typeof RateLimits>;

/** What a key carries at the edge: its own limits and its tenant's, either absent. */
export const KeyLimits = z.object({ key: RateLimits.nullable(), tenant: RateLimits.nullable() });
export type KeyLimits = z.infer<typeof KeyLimits>;

/** A tenant's stored limits: tenant-wide values plus the default for each of its keys. */
export const TenantLimitsConfig = RateLimits.extend({ perKey: RateLimits.optional() }).strict();
export type TenantLimitsConfig = z.infer<typeof TenantLimitsConfig>;
