import { z } from 'zod';

/** What an entry holds: the client-family answer as it was sent, and the tokens it was metered at. */
export const CachedAnswer = z.object({
  answer: z.record(z.string(), z.unknown()),
  prompt: z.number().int().nonnegative(),
  completion: z.number().int().nonnegative(),
});
export type CachedAnswer = z.infer<typeof CachedAnswer>;
