import { z } from 'zod';

/** Settings of rate limiting at the edge; counters live in the Redis every edge replica shares. */
export const LimitsEnv = z.object({
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
});
export type LimitsEnv = z.infer<typeof LimitsEnv>;
