import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';

/** POST /oaic/v1/completions (spec 4.3): legacy text completion. */
export const CompletionRequest = z.looseObject({
  model: RequestModelName,
  prompt: z.union([z.string(), z.array(z.string()).min(1)], { error: 'expected a string or an array of strings' }),
  stream: z.boolean().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  user: z.string().optional(),
});
export type CompletionRequest = z.infer<typeof CompletionRequest>;
