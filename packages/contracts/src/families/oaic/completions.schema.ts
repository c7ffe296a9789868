import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { ChatCompletionUsage, ChatFinishReason } from './chat-response.schema';

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

/** One text completion; a stream sends these objects whole, `finish_reason` null until a choice ends. */
export const TextCompletionResponse = z
  .looseObject({
    id: z.string(),
    object: z.literal('text_completion'),
    created: z.number().int().describe('Unix seconds'),
    model: z.string(),
    choices: z.array(
      z.looseObject({
        text: z.string(),
        index: z.number().int().nonnegative(),
        logprobs: z.looseObject({}).nullable(),
        finish_reason: ChatFinishReason.nullable(),
      }),
    ),
    usage: ChatCompletionUsage.nullish(),
  })
  .describe('A text completion');
export type TextCompletionResponse = z.infer<typeof TextCompletionResponse>;
