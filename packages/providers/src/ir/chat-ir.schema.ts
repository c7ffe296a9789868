// The canonical chat representation every family decodes into and every upstream encodes from.
// Shapes only; the transforms never re-parse IR on the hot path.
import type { EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';

/** The public family a request arrived in: decides how a field is named in an error. */
export const IrFamily = z.enum(['oaic', 'msgc', 'genc']);
export type IrFamily = z.infer<typeof IrFamily>;

/** `cache`: the client marked the prompt up to here as a cache breakpoint (msgc `cache_control`). */
export const IrTextPart = z.object({ type: z.literal('text'), text: z.string(), cache: z.boolean().optional() });
export type IrTextPart = z.infer<typeof IrTextPart>;

/** An image given inline (base64 + media type) or by public HTTPS URL; `param` is where the client put it. */
export const IrImagePart = z.object({
  type: z.literal('image'),
  mediaType: z.string().nullable(),
  data: z.string().nullable(),
  url: z.string().nullable(),
  param: z.string(),
});
export type IrImagePart = z.infer<typeof IrImagePart>;

/** `arguments` is JSON text, exactly as the model produced it. */
export const IrToolCallPart = z.object({ type: z.literal('tool_call'), id: z.string(), name: z.string(), arguments: z.string() });
export type IrToolCallPart = z.infer<typeof IrToolCallPart>;

/** `name` is null when the source family links results by id only (oaic, msgc). */
export const IrToolResultPart = z.object({
  type: z.literal('tool_result'),
  toolCallId: z.string(),
  name: z.string().nullable(),
  content: z.string(),
  isError: z.boolean(),
});
export type IrToolResultPart = z.infer<typeof IrToolResultPart>;

/**
 * A model's reasoning: its text (empty when redacted), the vendor's signature that lets it be sent back,
 * and for redacted reasoning the opaque data that stands for it.
 */
export const IrReasoningPart = z.object({
  type: z.literal('reasoning'),
  text: z.string(),
  signature: z.string().nullable(),
  redacted: z.string().nullable(),
});
export type IrReasoningPart = z.infer<typeof IrReasoningPart>;

export const IrPart = z.discriminatedUnion('type', [IrTextPart, IrImagePart, IrToolCallPart, IrToolResultPart, IrReasoningPart]);
export type IrPart = z.infer<typeof IrPart>;

export const IrMessage = z.object({ role: z.enum(['user', 'assistant', 'tool']), parts: z.array(IrPart) });
export type IrMessage = z.infer<typeof IrMessage>;

export const IrTool = z.object({
  name: z.string(),
  description: z.string().nullable(),
  parameters: z.record(z.string(), z.unknown()),
  cache: z.boolean().optional(),
});
export type IrTool = z.infer<typeof IrTool>;

export const IrToolChoice = z.object({ type: z.enum(['auto', 'any', 'none', 'tool']), name: z.string().nullable() });
export type IrToolChoice = z.infer<typeof IrToolChoice>;

/** Answer as JSON: any object, or an instance of `schema` (JSON Schema). */
export const IrResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string(),
    description: z.string().nullable(),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullable(),
  }),
]);
export type IrResponseFormat = z.infer<typeof IrResponseFormat>;

export const IrEffort = z.enum(['minimal', 'low', 'medium', 'high']);
export type IrEffort = z.infer<typeof IrEffort>;

/** Think before answering: an effort level or a token budget (each derivable from the other), and whether to show the thoughts. */
export const IrReasoning = z.object({ effort: IrEffort, budgetTokens: z.number().int(), includeThoughts: z.boolean() });
export type IrReasoning = z.infer<typeof IrReasoning>;

export const IrSafetySetting = z.object({ category: z.string(), threshold: z.string() });

export const ChatIrRequest = z.object({
  family: IrFamily,
  model: z.string(),
  system: z.array(IrTextPart),
  messages: z.array(IrMessage),
  tools: z.array(IrTool),
  toolChoice: IrToolChoice.nullable(),
  /** False: at most one tool call per answer; null: the upstream's default. */
  parallelToolCalls: z.boolean().nullable().optional(),
  responseFormat: IrResponseFormat.nullable().optional(),
  reasoning: IrReasoning.nullable().optional(),
  maxTokens: z.number().int().nullable(),
  temperature: z.number().nullable(),
  topP: z.number().nullable(),
  topK: z.number().int().nullable(),
  presencePenalty: z.number().nullable(),
  frequencyPenalty: z.number().nullable(),
  stop: z.array(z.string()),
  /** Null: text only, as every family defaults. */
  responseModalities: z.array(z.enum(['text', 'image'])).nullable(),
  safetySettings: z.array(IrSafetySetting).nullable(),
  user: z.string().nullable(),
  stream: z.boolean(),
});
export type ChatIrRequest = z.infer<typeof ChatIrRequest>;

export const IrStopReason = z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'content_filter']);
export type IrStopReason = z.infer<typeof IrStopReason>;

/**
 * `inputTokens` counts every prompt token, cached or not; `cacheReadTokens` and `cacheWriteTokens` say how
 * many of them were read from or written to the upstream's prompt cache. `outputTokens` includes the
 * `reasoningTokens` spent thinking.
 */
export const IrUsage = z.object({
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  reasoningTokens: z.number().int().optional(),
  cacheReadTokens: z.number().int().optional(),
  cacheWriteTokens: z.number().int().optional(),
});
export type IrUsage = z.infer<typeof IrUsage>;

export const IrOutputImage = z.object({ type: z.literal('image'), mediaType: z.string(), data: z.string() });
export type IrOutputImage = z.infer<typeof IrOutputImage>;

export const IrOutputPart = z.discriminatedUnion('type', [IrTextPart, IrToolCallPart, IrOutputImage, IrReasoningPart]);
export type IrOutputPart = z.infer<typeof IrOutputPart>;

export const ChatIrResponse = z.object({
  id: z.string(),
  model: z.string(),
  parts: z.array(IrOutputPart),
  stopReason: IrStopReason,
  stopSequence: z.string().nullable(),
  usage: IrUsage,
});
export type ChatIrResponse = z.infer<typeof ChatIrResponse>;

/**
 * One step of a streamed answer. Tool calls are numbered by `index` (their order in the answer);
 * `block_stop` closes the open text or tool-call block where the upstream says so.
 */
export const IrStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), id: z.string(), model: z.string(), inputTokens: z.number().int().nullable() }),
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  /** Reasoning arrives as text deltas, then its signature (or whole, when redacted); a block_stop closes it. */
  z.object({ type: z.literal('reasoning_delta'), text: z.string() }),
  z.object({ type: z.literal('reasoning_signature'), signature: z.string() }),
  z.object({ type: z.literal('reasoning_redacted'), data: z.string() }),
  z.object({ type: z.literal('tool_call_start'), index: z.number().int(), id: z.string(), name: z.string() }),
  z.object({ type: z.literal('tool_call_delta'), index: z.number().int(), arguments: z.string() }),
  z.object({ type: z.literal('block_stop') }),
  z.object({ type: z.literal('image'), mediaType: z.string(), data: z.string() }),
  z.object({ type: z.literal('finish'), stopReason: IrStopReason, stopSequence: z.string().nullable(), usage: IrUsage }),
]);
export type IrStreamEvent = z.infer<typeof IrStreamEvent>;

/** A raw server-sent event as the SSE parser hands it over. */
export type SseMessage = Pick<EventSourceMessage, 'event' | 'data'>;

/**
 * What a decoder needs beyond the upstream's bytes: the public model id to report (never the upstream's
 * name), an id when the upstream sends none, and the local input estimate for upstreams that report no usage.
 */
export interface DecodeContext {
  model: string;
  fallbackId: string;
  estimatedInputTokens: number;
  /** The tool the request was held to so the answer is JSON: its input is the answer's text. */
  structuredOutputTool?: string | null;
}

/** Turns an upstream's SSE messages into IR events; `end` flushes what the upstream left unsaid (usage, finish). */
export interface IrStreamDecoder {
  push(message: SseMessage): IrStreamEvent[];
  end(): IrStreamEvent[];
}

/** Turns IR events into one family's SSE text; `end` writes the closing frames if no finish came. */
export interface IrStreamEncoder {
  push(event: IrStreamEvent): string;
  end(): string;
}
