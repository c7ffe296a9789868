// msgc request bodies (spec 2.4, 4.4): messages and count_tokens. Unnamed fields pass through untouched.
import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { publicUrl } from '../../url-policy/url-policy.schema';

/**
 * A string or an array of `block`s. A plain union would report a bad block at the whole field;
 * dispatching on the type first lets the error name the block at fault.
 */
function stringOrArrayOf<T extends z.ZodType>(block: T) {
  const blocks = z.array(block);
  return z.union([z.string(), z.array(z.unknown())], { error: 'expected a string or an array of content blocks' }).transform((value, ctx) => {
    if (typeof value === 'string') return value;
    const result = blocks.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  });
}

export const MsgcTextBlock = z.object({ type: z.literal('text'), text: z.string() }).loose();
export type MsgcTextBlock = z.infer<typeof MsgcTextBlock>;

export const MsgcBase64ImageSource = z
  .object({
    type: z.literal('base64'),
    media_type: z.string().regex(/^image\/[a-z0-9.+-]+$/i, 'expected an image MIME type such as image/png'),
    data: z
      .string()
      .min(1)
      .refine((data) => !data.startsWith('data:'), 'base64 bytes without the data-URL prefix'),
  })
  .loose();

/** An image by URL, as the vendor takes it; the upstream fetches it, so it must pass the URL policy. */
export const MsgcUrlImageSource = z.object({ type: z.literal('url'), url: publicUrl() }).loose();

/** The bytes inline (base64) or a public HTTPS URL the upstream fetches. */
export const MsgcImageSource = z.discriminatedUnion('type', [MsgcBase64ImageSource, MsgcUrlImageSource], {
  error: (issue) => (issue.code === 'invalid_union' ? 'image sources are base64 (the bytes inline) or url (a public HTTPS URL)' : undefined),
});
export type MsgcImageSource = z.infer<typeof MsgcImageSource>;

export const MsgcImageBlock = z.object({ type: z.literal('image'), source: MsgcImageSource }).loose();
export type MsgcImageBlock = z.infer<typeof MsgcImageBlock>;

export const MsgcToolUseBlock = z
  .object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.record(z.string(), z.unknown()) })
  .loose();
export type MsgcToolUseBlock = z.infer<typeof MsgcToolUseBlock>;

export const MsgcToolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: stringOrArrayOf(z.discriminatedUnion('type', [MsgcTextBlock, MsgcImageBlock])).optional(),
    is_error: z.boolean().optional(),
  })
  .loose();
export type MsgcToolResultBlock = z.infer<typeof MsgcToolResultBlock>;

/** Reasoning from an earlier answer, sent back as it came: the signature proves it unaltered. */
export const MsgcThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }).loose();
export type MsgcThinkingBlock = z.infer<typeof MsgcThinkingBlock>;
export const MsgcRedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() }).loose();
export type MsgcRedactedThinkingBlock = z.infer<typeof MsgcRedactedThinkingBlock>;

export const MsgcContentBlock = z
  .object({ type: z.string() })
  .loose()
  .pipe(
    z.discriminatedUnion('type', [MsgcTextBlock, MsgcImageBlock, MsgcToolUseBlock, MsgcToolResultBlock, MsgcThinkingBlock, MsgcRedactedThinkingBlock], {
      error: (issue) => (issue.code === 'invalid_union' ? 'content blocks are text, image, tool_use, tool_result, thinking or redacted_thinking' : undefined),
    }),
  );
export type MsgcContentBlock = z.infer<typeof MsgcContentBlock>;

export const MsgcMessage = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: stringOrArrayOf(MsgcContentBlock),
  })
  .loose();
export type MsgcMessage = z.infer<typeof MsgcMessage>;

export const MsgcSystem = z.union([z.string(), z.array(MsgcTextBlock)]);
export type MsgcSystem = z.infer<typeof MsgcSystem>;

export const MsgcTool = z
  .object({
    name: z.string().min(1).max(128),
    description: z.string().optional(),
    input_schema: z.object({ type: z.literal('object') }).loose(),
  })
  .loose();
export type MsgcTool = z.infer<typeof MsgcTool>;

export const MsgcToolChoice = z
  .object({
    type: z.enum(['auto', 'any', 'tool', 'none']),
    name: z.string().min(1).optional(),
    disable_parallel_tool_use: z.boolean().optional(),
  })
  .loose()
  .refine((choice) => choice.type !== 'tool' || choice.name !== undefined, { message: 'a tool choice of type "tool" names the tool', path: ['name'] });
export type MsgcToolChoice = z.infer<typeof MsgcToolChoice>;

/** Extended thinking: on with a budget of output tokens, or off. */
export const MsgcThinking = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1) }).loose(),
  z.object({ type: z.literal('disabled') }).loose(),
]);
export type MsgcThinking = z.infer<typeof MsgcThinking>;

/** Structured output: the answer's text is an instance of `schema` (JSON Schema). */
export const MsgcOutputFormat = z.object({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) }).loose();
export type MsgcOutputFormat = z.infer<typeof MsgcOutputFormat>;

export const MessagesRequest = z
  .object({
    model: RequestModelName,
    max_tokens: z.number().int().positive(),
    messages: z.array(MsgcMessage).min(1),
    system: MsgcSystem.optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stop_sequences: z.array(z.string()).optional(),
    stream: z.boolean().optional(),
    tools: z.array(MsgcTool).optional(),
    tool_choice: MsgcToolChoice.optional(),
    metadata: z.object({ user_id: z.string().nullish() }).loose().optional(),
    thinking: MsgcThinking.optional(),
    output_format: MsgcOutputFormat.optional(),
    output_config: z.object({ format: MsgcOutputFormat.optional() }).loose().optional(),
  })
  .loose();
export type MessagesRequest = z.infer<typeof MessagesRequest>;

export const CountTokensRequest = z
  .object({
    model: RequestModelName,
    messages: z.array(MsgcMessage).min(1),
    system: MsgcSystem.optional(),
    tools: z.array(MsgcTool).optional(),
    tool_choice: MsgcToolChoice.optional(),
  })
  .loose();
export type CountTokensRequest = z.infer<typeof CountTokensRequest>;

export const CountTokensResponse = z.object({ input_tokens: z.number().int().min(0) });
export type CountTokensResponse = z.infer<typeof CountTokensResponse>;
