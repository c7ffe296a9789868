import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { ContentBlock } from './content-block.schema';

/** A string, or content blocks; anything else is reported at the field with one clear message. */
export const MessageContent = z.union([z.string(), z.array(ContentBlock)], {
  error: 'expected a string or an array of content blocks',
});

/** One chat message (spec 2.3). Fields the spec does not name (e.g. `tool_calls`) pass through unchanged. */
export const ChatMessage = z
  .looseObject({
    role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']),
    content: MessageContent.nullable().optional(),
    name: z.string().optional(),
    tool_call_id: z.string().optional(),
  })
  .superRefine((message, ctx) => {
    if (message.role === 'tool' && !message.tool_call_id) {
      ctx.addIssue({ code: 'custom', path: ['tool_call_id'], message: 'a tool message needs tool_call_id' });
    }
    if (message.content == null && !(message.role === 'assistant' && message.tool_calls)) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: 'content is required (only an assistant message with tool_calls may omit it)' });
    }
  });
export type ChatMessage = z.infer<typeof ChatMessage>;

const ToolDefinition = z.looseObject({ type: z.string(), function: z.looseObject({ name: z.string() }).optional() });

/** POST /oaic/v1/chat/completions (spec 4.2). */
export const ChatCompletionRequest = z.looseObject({
  model: RequestModelName,
  messages: z.array(ChatMessage).min(1),
  stream: z.boolean().nullish(),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  tools: z.array(ToolDefinition).optional(),
  tool_choice: z.union([z.string(), z.looseObject({ type: z.string() })]).optional(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  user: z.string().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;
