// Converse and ConverseStream request bodies, as strict as Bedrock: unknown fields, a union member with
// more or less than one field set, or a conversation that does not alternate are a ValidationException.
import { z } from 'zod';

function exactlyOne<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject(shape).refine((value) => Object.values(value).filter((member) => member !== undefined).length === 1, {
    message: `exactly one of ${Object.keys(shape).join(', ')} must be set`,
  });
}

const Bytes = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64 bytes');
const Json = z.unknown().refine((value) => value !== undefined, 'a JSON document is required');

export const ConverseImage = z.strictObject({ format: z.enum(['png', 'jpeg', 'gif', 'webp']), source: exactlyOne({ bytes: Bytes.min(1).optional() }) });
export const ConverseDocument = z.strictObject({
  format: z.enum(['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md']).optional(),
  name: z.string().min(1).max(200),
  source: exactlyOne({ bytes: Bytes.min(1).optional(), text: z.string().optional() }),
  context: z.string().optional(),
  citations: z.strictObject({ enabled: z.boolean() }).optional(),
});
export const CachePoint = z.strictObject({ type: z.literal('default'), ttl: z.enum(['5m', '1h']).optional() });

const ToolResultContent = exactlyOne({
  text: z.string().optional(),
  json: Json.optional(),
  image: ConverseImage.optional(),
  document: ConverseDocument.optional(),
});

export const ConverseToolUse = z.strictObject({
  toolUseId: z.string().min(1).max(64),
  name: z.string().min(1).max(64),
  input: Json,
  type: z.literal('server_tool_use').optional(),
});
export const ConverseToolResult = z.strictObject({
  toolUseId: z.string().min(1).max(64),
  content: z.array(ToolResultContent),
  status: z.enum(['success', 'error']).optional(),
  type: z.string().optional(),
});
export const ConverseReasoning = exactlyOne({
  reasoningText: z.strictObject({ text: z.string(), signature: z.string().optional() }).optional(),
  redactedContent: Bytes.optional(),
});

export const ConverseContentBlock = exactlyOne({
  text: z.string().optional(),
  image: ConverseImage.optional(),
  document: ConverseDocument.optional(),
  toolUse: ConverseToolUse.optional(),
  toolResult: ConverseToolResult.optional(),
  reasoningContent: ConverseReasoning.optional(),
  cachePoint: CachePoint.optional(),
});
export type ConverseContentBlock = z.infer<typeof ConverseContentBlock>;

export const ConverseMessage = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.array(ConverseContentBlock).min(1) });
export type ConverseMessage = z.infer<typeof ConverseMessage>;

export const SystemBlock = exactlyOne({ text: z.string().min(1).optional(), cachePoint: CachePoint.optional() });

const ToolSpec = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'expected a tool name of letters, digits, _ and -'),
  description: z.string().min(1).optional(),
  inputSchema: exactlyOne({ json: z.record(z.string(), z.unknown()).optional() }),
  strict: z.boolean().optional(),
});
export const ConverseTool = exactlyOne({ toolSpec: ToolSpec.optional(), cachePoint: CachePoint.optional() });

const Empty = z.strictObject({});
export const ConverseToolChoice = exactlyOne({
  auto: Empty.optional(),
  any: Empty.optional(),
  tool: z.strictObject({ name: z.string().min(1) }).optional(),
});

const Thinking = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
  z.strictObject({ type: z.literal('disabled') }),
]);

/** What Claude on Bedrock takes beyond Converse's own fields; anything else is refused as the model refuses it. */
export const ClaudeRequestFields = z.strictObject({
  thinking: Thinking.optional(),
  reasoning_config: Thinking.optional(),
  top_k: z.number().int().min(0).optional(),
  anthropic_beta: z.array(z.string()).optional(),
});

const JsonSchemaText = z.string().refine((text) => {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}, 'expected a JSON Schema object as JSON text');

/** Structured output: the answer's text is an instance of the schema, given as JSON text. */
export const ConverseOutputConfig = z.strictObject({
  textFormat: z
    .strictObject({
      type: z.literal('json_schema'),
      structure: exactlyOne({
        jsonSchema: z.strictObject({ schema: JsonSchemaText, name: z.string().min(1).optional(), description: z.string().optional() }).optional(),
      }),
    })
    .optional(),
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
});

export const ConverseRequest = z
  .strictObject({
    messages: z.array(ConverseMessage).min(1),
    system: z.array(SystemBlock).optional(),
    inferenceConfig: z
      .strictObject({
        maxTokens: z.number().int().min(1).optional(),
        temperature: z.number().min(0).max(1).optional(),
        topP: z.number().min(0).max(1).optional(),
        stopSequences: z.array(z.string().min(1)).max(4).optional(),
      })
      .optional(),
    toolConfig: z.strictObject({ tools: z.array(ConverseTool).min(1), toolChoice: ConverseToolChoice.optional() }).optional(),
    additionalModelRequestFields: ClaudeRequestFields.optional(),
    additionalModelResponseFieldPaths: z.array(z.string()).optional(),
    requestMetadata: z.record(z.string(), z.string()).optional(),
    performanceConfig: z.strictObject({ latency: z.enum(['standard', 'optimized']) }).optional(),
    serviceTier: z.strictObject({ type: z.enum(['default', 'flex', 'priority', 'reserved']) }).optional(),
    outputConfig: ConverseOutputConfig.optional(),
  })
  .superRefine((request, ctx) => {
    request.messages.forEach((message, i) => {
      const expected = i % 2 === 0 ? 'user' : 'assistant';
      if (message.role !== expected)
        ctx.addIssue({
          code: 'custom',
          path: ['messages', i, 'role'],
          message: i === 0 ? 'A conversation must start with a user message.' : 'A conversation must alternate between user and assistant roles.',
        });
    });
  });
export type ConverseRequest = z.infer<typeof ConverseRequest>;
