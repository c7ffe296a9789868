// What Bedrock answers, parsed before any of it is read: the Converse body and each ConverseStream event.
// Loose: fields Bedrock adds later pass unread.
import { z } from 'zod';

const ReasoningContent = z
  .object({ reasoningText: z.object({ text: z.string(), signature: z.string().optional() }).loose().optional(), redactedContent: z.string().optional() })
  .loose();

export const ConverseOutputBlock = z
  .object({
    text: z.string().optional(),
    toolUse: z.object({ toolUseId: z.string(), name: z.string(), input: z.unknown() }).loose().optional(),
    reasoningContent: ReasoningContent.optional(),
  })
  .loose();

export const ConverseUsage = z
  .object({
    inputTokens: z.number().int(),
    outputTokens: z.number().int(),
    totalTokens: z.number().int().optional(),
    cacheReadInputTokens: z.number().int().nullish(),
    cacheWriteInputTokens: z.number().int().nullish(),
  })
  .loose();
export type ConverseUsage = z.infer<typeof ConverseUsage>;

export const ConverseResponse = z
  .object({
    output: z.object({ message: z.object({ role: z.literal('assistant'), content: z.array(ConverseOutputBlock) }).loose() }).loose(),
    stopReason: z.string(),
    usage: ConverseUsage,
    metrics: z.object({ latencyMs: z.number() }).loose().optional(),
  })
  .loose();

export const MessageStartEvent = z.object({ role: z.string() }).loose();
export const ContentBlockStartEvent = z
  .object({
    contentBlockIndex: z.number().int(),
    start: z.object({ toolUse: z.object({ toolUseId: z.string(), name: z.string() }).loose().optional() }).loose(),
  })
  .loose();
export const ContentBlockDeltaEvent = z
  .object({
    contentBlockIndex: z.number().int(),
    delta: z
      .object({
        text: z.string().optional(),
        toolUse: z.object({ input: z.string() }).loose().optional(),
        reasoningContent: z
          .object({ text: z.string().optional(), signature: z.string().optional(), redactedContent: z.string().optional() })
          .loose()
          .optional(),
      })
      .loose(),
  })
  .loose();
export const ContentBlockStopEvent = z.object({ contentBlockIndex: z.number().int() }).loose();
export const MessageStopEvent = z.object({ stopReason: z.string() }).loose();
export const MetadataEvent = z.object({ usage: ConverseUsage.optional(), metrics: z.object({ latencyMs: z.number() }).loose().optional() }).loose();
export const BedrockErrorBody = z.object({ message: z.string().optional(), Message: z.string().optional() }).loose();
