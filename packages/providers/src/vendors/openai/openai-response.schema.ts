// Shapes of what an OpenAI-compatible upstream answers, as far as the gateway relies on them. Everything
// else in the body passes through untouched (`.loose()`).
import { z } from 'zod';

export const OpenaiUsage = z
  .object({
    prompt_tokens: z.number().int().nonnegative().optional(),
    completion_tokens: z.number().int().nonnegative().optional(),
    input_tokens: z.number().int().nonnegative().optional(),
    output_tokens: z.number().int().nonnegative().optional(),
    total_tokens: z.number().int().nonnegative().optional(),
    prompt_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).loose().nullish(),
    input_tokens_details: z.object({ cached_tokens: z.number().int().nonnegative().nullish() }).loose().nullish(),
    completion_tokens_details: z.object({ reasoning_tokens: z.number().int().nonnegative().nullish() }).loose().nullish(),
    output_tokens_details: z.object({ reasoning_tokens: z.number().int().nonnegative().nullish() }).loose().nullish(),
  })
  .loose();

const ToolCallDelta = z
  .object({
    index: z.number().int().nonnegative().optional(),
    id: z.string().optional(),
    type: z.string().optional(),
    function: z.object({ name: z.string().optional(), arguments: z.string().optional() }).loose().optional(),
  })
  .loose();

export const ChatCompletion = z
  .object({
    id: z.string(),
    object: z.string().optional(),
    model: z.string().optional(),
    choices: z.array(
      z
        .object({
          index: z.number().int().nonnegative(),
          message: z
            .object({ role: z.string(), content: z.string().nullish(), reasoning_content: z.string().nullish(), tool_calls: z.array(ToolCallDelta).nullish() })
            .loose(),
          finish_reason: z.string().nullish(),
        })
        .loose(),
    ),
    usage: OpenaiUsage.nullish(),
  })
  .loose();

export const ChatCompletionChunk = z
  .object({
    id: z.string(),
    object: z.string().optional(),
    model: z.string().optional(),
    choices: z.array(
      z
        .object({
          index: z.number().int().nonnegative(),
          delta: z
            .object({
              role: z.string().optional(),
              content: z.string().nullish(),
              reasoning_content: z.string().nullish(),
              tool_calls: z.array(ToolCallDelta).nullish(),
            })
            .loose()
            .optional(),
          finish_reason: z.string().nullish(),
        })
        .loose(),
    ),
    usage: OpenaiUsage.nullish(),
  })
  .loose();
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;

export const TextCompletion = z
  .object({ id: z.string(), choices: z.array(z.object({ index: z.number().int(), text: z.string() }).loose()), usage: OpenaiUsage.nullish() })
  .loose();

export const ResponseObject = z
  .object({
    id: z.string(),
    object: z.literal('response').optional(),
    status: z.string().optional(),
    output: z.array(z.unknown()),
    usage: OpenaiUsage.nullish(),
  })
  .loose();

export const EmbeddingList = z
  .object({
    data: z.array(z.object({ index: z.number().int(), embedding: z.union([z.array(z.number()), z.string()]) }).loose()),
    usage: OpenaiUsage.nullish(),
  })
  .loose();

export const ModerationResult = z.object({ results: z.array(z.object({ flagged: z.boolean() }).loose()) }).loose();

export const ImageList = z.object({ data: z.array(z.object({ url: z.string().optional(), b64_json: z.string().optional() }).loose()) }).loose();

export const Transcription = z.object({ text: z.string() }).loose();

/** The error envelope of OpenAI-compatible servers; many send only part of it. */
export const OpenaiErrorBody = z.object({
  error: z.union([
    z
      .object({ message: z.string().optional(), type: z.string().nullish(), param: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() })
      .loose(),
    z.string(),
  ]),
});
