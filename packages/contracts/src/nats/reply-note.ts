import { z } from 'zod';
import { CacheOutcome } from '../cache/response-cache.schema';

/**
 * What a service tells the caller about how it served a request, beside the answer: the model and
 * channel that answered and the tokens counted. Never a key or any of the request's text.
 */
export const ReplyNote = z.object({
  model: z.string().max(256).optional(),
  channel: z.string().max(256).optional(),
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  outcome: z.string().max(64).optional(),
  /** The response cache's part (a tenant with the cache on): the edge's `x-gateway-cache` answer header. */
  cache: CacheOutcome.optional(),
});
export type ReplyNote = z.infer<typeof ReplyNote>;
