// The parts of a responses request the gateway reads when it answers through chat: input items (messages,
// function calls and their outputs), function tools, tool choice and text format. Items and tools of any
// other type (reasoning, built-in tools, item references, …) pass on unchanged to an upstream with a
// responses endpoint of its own; only their `type` is checked here.
import { z } from 'zod';

/** A content part; its other fields are the upstream's to judge (URLs are checked by the request schema). */
export const ResponseInputPart = z.looseObject({ type: z.string() });
export type ResponseInputPart = z.infer<typeof ResponseInputPart>;

const PartsOrText = z.union([z.string(), z.array(ResponseInputPart)], { error: 'expected a string or an array of content parts' });

export const ResponseMessageItem = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: PartsOrText,
});

export const ResponseFunctionCallItem = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
});

export const ResponseFunctionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string(),
  output: PartsOrText,
});

/** The item types the gateway reads, each checked in full. */
export const ReadResponseInputItem = z.discriminatedUnion('type', [ResponseMessageItem, ResponseFunctionCallItem, ResponseFunctionCallOutputItem]);
export type ReadResponseInputItem = z.infer<typeof ReadResponseInputItem>;

const READ_ITEM_TYPES: ReadonlySet<string> = new Set(['message', 'function_call', 'function_call_output']);

/** What every item and tool has: a type (a message may leave it out); the rest is the type's own. */
const Typed = z.looseObject({ type: z.string().optional() });
type Typed = z.infer<typeof Typed>;

/**
 * Checks `value` against `schema` when `reads` says the gateway reads its type, and passes it on unchanged
 * otherwise. A failure keeps the inner field's path (`input[1].call_id`, not `input`): its issues continue,
 * so the union around the list (string or items) reports them rather than its own summary.
 */
function readOrPassed<S extends z.ZodType<Typed>>(schema: S, reads: (type: string | undefined) => boolean) {
  return Typed.transform((value, ctx): z.infer<S> | Typed => {
    if (!reads(value.type)) return value;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: undefined, continue: true });
    return z.NEVER;
  });
}

export const ResponseInputItem = readOrPassed(ReadResponseInputItem, (type) => type === undefined || READ_ITEM_TYPES.has(type));
export type ResponseInputItem = z.infer<typeof ResponseInputItem>;

/** Narrows an item the schema accepted to the types the gateway reads (the others pass on unchanged). */
export function isReadResponseInputItem(item: ResponseInputItem): item is ReadResponseInputItem {
  return item.type === undefined || READ_ITEM_TYPES.has(item.type);
}

export const ResponseFunctionTool = z.looseObject({
  type: z.literal('function'),
  name: z.string(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});
export type ResponseFunctionTool = z.infer<typeof ResponseFunctionTool>;

export const ResponseTool = readOrPassed(ResponseFunctionTool, (type) => type === 'function');
export type ResponseTool = z.infer<typeof ResponseTool>;

export function isResponseFunctionTool(tool: ResponseTool): tool is ResponseFunctionTool {
  return tool.type === 'function';
}

/** The request fields beside `input` that the chat bridge translates; spread into the request schema. */
export const ResponseToolFields = {
  tools: z.array(ResponseTool).optional(),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.string(), name: z.string().optional() })]).optional(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z.looseObject({ format: z.looseObject({ type: z.string() }).optional() }).nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
};
