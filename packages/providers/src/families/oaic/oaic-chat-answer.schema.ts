// A chat.completion and its stream chunks as the oaic bridges read them to re-encode a chat answer as
// another oaic object. Everything is optional: the answer was already checked where it entered (an
// upstream's decoder, or this gateway's own encoder), so this only types what is read.
import { z } from 'zod';

const ChatToolCall = z.looseObject({
  index: z.number().int().nonnegative().optional(),
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
export type ChatToolCall = z.infer<typeof ChatToolCall>;

const ChatMessageOut = z.looseObject({ content: z.string().nullish(), reasoning_content: z.string().nullish(), tool_calls: z.array(ChatToolCall).nullish() });

export const ChatAnswerUsage = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});
export type ChatAnswerUsage = z.infer<typeof ChatAnswerUsage>;

export const ChatAnswer = z.looseObject({
  choices: z.array(z.looseObject({ message: ChatMessageOut.nullish(), finish_reason: z.string().nullish() })).nullish(),
  usage: ChatAnswerUsage.nullish(),
});
export type ChatAnswer = z.infer<typeof ChatAnswer>;

export const ChatAnswerChunk = z.looseObject({
  choices: z.array(z.looseObject({ delta: ChatMessageOut.nullish(), finish_reason: z.string().nullish() })).nullish(),
  usage: ChatAnswerUsage.nullish(),
  error: z.looseObject({}).nullish(),
});
export type ChatAnswerChunk = z.infer<typeof ChatAnswerChunk>;
