// What the simulated OpenAI upstream accepts: the fields it reads are checked, everything else is ignored,
// as the real API does for fields a model does not use.
import { z } from 'zod';

const TextPart = z.object({ type: z.literal('text'), text: z.string() }).loose();
const OtherPart = z.object({ type: z.string() }).loose();
export const ContentPart = z.union([TextPart, OtherPart]);

export const ToolCall = z
  .object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }).loose() })
  .loose();

export const ChatMessage = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
    content: z.union([z.string(), z.array(ContentPart)]).nullish(),
    name: z.string().optional(),
    tool_call_id: z.string().optional(),
    tool_calls: z.array(ToolCall).optional(),
  })
  .loose();
export type ChatMessage = z.infer<typeof ChatMessage>;

export const FunctionTool = z
  .object({
    type: z.literal('function'),
    function: z.object({ name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }).loose(),
  })
  .loose();
export type FunctionTool = z.infer<typeof FunctionTool>;

const ToolChoice = z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }).loose()]);

const MaxTokens = z.number().int().positive().nullish();

/** chat's `response_format`; responses' `text.format` has the same members, its json_schema flattened. Only what is read is kept. */
export const ResponseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({ type: z.literal('json_schema'), json_schema: z.object({ name: z.string(), schema: z.record(z.string(), z.unknown()).optional() }) }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;
export const TextFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({ type: z.literal('json_schema'), name: z.string(), schema: z.record(z.string(), z.unknown()) }),
]);
export type TextFormat = z.infer<typeof TextFormat>;
const Effort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
const StreamOptions = z.object({ include_usage: z.boolean().optional() }).loose().nullish();

export const ChatRequest = z
  .object({
    model: z.string().min(1),
    messages: z.array(ChatMessage).min(1),
    stream: z.boolean().nullish(),
    stream_options: StreamOptions,
    max_tokens: MaxTokens,
    max_completion_tokens: MaxTokens,
    tools: z.array(FunctionTool).optional(),
    tool_choice: ToolChoice.optional(),
    parallel_tool_calls: z.boolean().nullish(),
    response_format: ResponseFormat.nullish(),
    reasoning_effort: Effort.nullish(),
    prompt_cache_key: z.string().nullish(),
  })
  .loose();
export type ChatRequest = z.infer<typeof ChatRequest>;

export const CompletionRequest = z
  .object({
    model: z.string().min(1),
    prompt: z.union([z.string(), z.array(z.string()).min(1)]),
    stream: z.boolean().nullish(),
    stream_options: StreamOptions,
    max_tokens: MaxTokens,
  })
  .loose();
export type CompletionRequest = z.infer<typeof CompletionRequest>;

const ResponseInputItem = z
  .object({ role: z.string().optional(), type: z.string().optional(), content: z.union([z.string(), z.array(ContentPart)]).optional() })
  .loose();
export const ResponseRequest = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(ResponseInputItem)]),
    instructions: z.string().nullish(),
    stream: z.boolean().nullish(),
    max_output_tokens: MaxTokens,
    metadata: z.record(z.string(), z.string()).nullish(),
    previous_response_id: z.string().nullish(),
    temperature: z.number().nullish(),
    top_p: z.number().nullish(),
    tools: z.array(z.object({ type: z.string(), name: z.string().optional(), parameters: z.record(z.string(), z.unknown()).nullish() }).loose()).nullish(),
    tool_choice: z.unknown().optional(),
    text: z.object({ format: TextFormat.optional() }).loose().nullish(),
    reasoning: z.object({ effort: Effort.nullish(), summary: z.string().nullish() }).loose().nullish(),
    prompt_cache_key: z.string().nullish(),
  })
  .loose();
export type ResponseRequest = z.infer<typeof ResponseRequest>;

export const EmbeddingRequest = z
  .object({
    model: z.string().min(1),
    input: z.union([z.string(), z.array(z.string()).min(1), z.array(z.number().int()).min(1), z.array(z.array(z.number().int()).min(1)).min(1)]),
    dimensions: z.number().int().positive().max(8192).optional(),
    encoding_format: z.enum(['float', 'base64']).optional(),
  })
  .loose();
export type EmbeddingRequest = z.infer<typeof EmbeddingRequest>;

export const ModerationRequest = z
  .object({
    model: z.string().min(1).optional(),
    input: z.union([z.string(), z.array(z.string()), z.array(z.object({ type: z.string(), text: z.string().optional() }).loose())]),
  })
  .loose();
export type ModerationRequest = z.infer<typeof ModerationRequest>;

export const ImageRequest = z
  .object({
    model: z.string().min(1).optional(),
    prompt: z.string().min(1),
    n: z.number().int().min(1).max(10).nullish(),
    size: z.string().nullish(),
    response_format: z.enum(['url', 'b64_json']).nullish(),
  })
  .loose();
export type ImageRequest = z.infer<typeof ImageRequest>;

export const SpeechRequest = z
  .object({
    model: z.string().min(1),
    input: z.string().min(1).max(4096),
    voice: z.union([z.string().min(1), z.object({ id: z.string() }).loose()]),
    response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).optional(),
    speed: z.number().min(0.25).max(4).optional(),
  })
  .loose();
export type SpeechRequest = z.infer<typeof SpeechRequest>;

export const TranscriptionFormat = z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt']);
export type TranscriptionFormat = z.infer<typeof TranscriptionFormat>;

export const TranscriptionFields = z
  .object({
    model: z.string().min(1),
    response_format: TranscriptionFormat.optional(),
    language: z.string().optional(),
    prompt: z.string().optional(),
  })
  .loose();
export type TranscriptionFields = z.infer<typeof TranscriptionFields>;
