import { z } from 'zod';

export const UsageFoldEnv = z.object({
  /**
   * How often the accounts service folds new usage records and ledger entries into the hourly rollup.
   * Summaries stay exact between folds (they add what is not folded yet); a shorter interval keeps that
   * part small.
   */
  USAGE_FOLD_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
});
export type UsageFoldEnv = z.infer<typeof UsageFoldEnv>;

export const USAGE_FOLD_ENV = Symbol('USAGE_FOLD_ENV');
