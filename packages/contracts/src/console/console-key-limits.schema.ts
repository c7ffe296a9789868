import { z } from 'zod';
import { RateLimits } from '../billing/limits.schema';

/** A key's rate limits as the console shows them: its own, the tenant's default for each key, and what applies. */
export const ConsoleKeyLimits = z.object({
  id: z.string(),
  own: RateLimits.nullable(),
  tenantDefault: RateLimits.nullable(),
  /** The key's own limits where set, else the tenant's default for each key. */
  effective: RateLimits.nullable(),
  /** The tenant-wide limits, which apply beside the key's. */
  tenant: RateLimits.nullable(),
});
export type ConsoleKeyLimits = z.infer<typeof ConsoleKeyLimits>;

/** Sets a key's own limits; null clears them (the tenant's default applies again). */
export const ConsoleKeyLimitsRequest = z.object({ limits: RateLimits.nullable() }).strict();
export const ConsoleKeyLimitsMessage = z.object({ tenant: z.string().min(1), id: z.string().min(1).max(64) });
export const ConsoleKeyLimitsSetMessage = ConsoleKeyLimitsMessage.extend({ limits: RateLimits.nullable() });
