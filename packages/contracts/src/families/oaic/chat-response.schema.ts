// What the oaic chat route answers: a chat.completion, or with `stream: true` chat.completion.chunk events.
// Fields the gateway does not write itself (a relayed upstream's `system_fingerprint`, `service_tier`, …) pass on.
import { z } from 'zod';

const Count = z.number().int().nonnegative();

export const ChatFinishReason = z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']);
export type ChatFinishReason = z.infer<typeof ChatFinishReason>;

/** Token counts; the details appear when there is something to say (tokens read from the prompt cache, tokens spent reasoning). */
export const ChatCompletionUsage = z.looseObject({
  prompt_tokens: Count,
  completion_tokens: Count,
  total_tokens: Count,
  prompt_tokens_details: z.looseObject({ cached_tokens: Count.optional() }).optional(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: Count.optional() }).optional(),
});
export type ChatCompletionUsage = z.infer<typeof ChatCompletionUsage>;

export const ChatToolCallOut = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string().describe('The arguments as a JSON text') }),
});
export type ChatToolCallOut = z.infer<typeof ChatToolCallOut>;

/** A generated image, inline as a data URL. */
export const ChatImageOut = z.looseObject({ type: z.literal('image_url'), image_url: z.looseObject({ url: z.string() }) });
export type ChatImageOut = z.infer<typeof ChatImageOut>;

export const ChatCompletionMessage = z.looseObject({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  refusal: z.string().nullish(),
  reasoning_content: z.string().optional().describe('The reasoning text, where the model showed it'),
  tool_calls: z.array(ChatToolCallOut).optional(),
  images: z.array(ChatImageOut).optional(),
});
export type ChatCompletionMessage = z.infer<typeof ChatCompletionMessage>;

export const ChatCompletionResponse = z
  .looseObject({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number().int().describe('Unix seconds'),
    model: z.string(),
    choices: z.array(z.looseObject({ index: Count, message: ChatCompletionMessage, logprobs: z.looseObject({}).nullish(), finish_reason: ChatFinishReason })),
    usage: ChatCompletionUsage.optional(),
  })
  .describe('A chat completion');
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponse>;

/** A tool call in pieces: the first delta of a call names it, the next ones add to its arguments. */
const ChatToolCallDelta = z.looseObject({
  index: Count,
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string().optional(), arguments: z.string().optional() }).optional(),
});

export const ChatCompletionDelta = z.looseObject({
  role: z.literal('assistant').optional(),
  content: z.string().nullish(),
  refusal: z.string().nullish(),
  reasoning_content: z.string().optional(),
  tool_calls: z.array(ChatToolCallDelta).optional(),
  images: z.array(ChatImageOut).optional(),
});
export type ChatCompletionDelta = z.infer<typeof ChatCompletionDelta>;

/** One event of a streamed chat completion; the stream ends with `data: [DONE]`. */
export const ChatCompletionStreamChunk = z
  .looseObject({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.looseObject({ index: Count, delta: ChatCompletionDelta, logprobs: z.looseObject({}).nullish(), finish_reason: ChatFinishReason.nullable() }),
    ),
    usage: ChatCompletionUsage.nullish().describe('On the last chunk only, which has no choices'),
  })
  .describe('One chunk of a streamed chat completion');
export type ChatCompletionStreamChunk = z.infer<typeof ChatCompletionStreamChunk>;
