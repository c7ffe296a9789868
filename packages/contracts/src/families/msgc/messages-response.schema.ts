// msgc answers: the message body, the stream events, the error body. Also the Anthropic upstream's shapes.
import { z } from 'zod';
import { MsgcBase64ImageSource, MsgcTextBlock } from './messages-request.schema';

export const MsgcStopReason = z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal']);
export type MsgcStopReason = z.infer<typeof MsgcStopReason>;

export const MsgcUsage = z
  .object({
    input_tokens: z.number().int().min(0),
    output_tokens: z.number().int().min(0),
    cache_creation_input_tokens: z.number().int().nullish(),
    cache_read_input_tokens: z.number().int().nullish(),
  })
  .loose();
export type MsgcUsage = z.infer<typeof MsgcUsage>;

/** Images a model answers with come inline: a URL source is a request-side way to hand the upstream an image. */
const ResponseImageBlock = z.object({ type: z.literal('image'), source: MsgcBase64ImageSource }).loose();
const ResponseToolUse = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }).loose();
/** Reasoning blocks: thinking text with its signature, or redacted thinking as opaque data. */
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }).loose();
const RedactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() }).loose();

export const MsgcResponseBlock = z.discriminatedUnion('type', [MsgcTextBlock, ResponseToolUse, ResponseImageBlock, ThinkingBlock, RedactedThinkingBlock]);
export type MsgcResponseBlock = z.infer<typeof MsgcResponseBlock>;

export const MessagesResponse = z
  .object({
    id: z.string(),
    type: z.literal('message'),
    role: z.literal('assistant'),
    content: z.array(MsgcResponseBlock),
    model: z.string(),
    stop_reason: MsgcStopReason.nullable(),
    stop_sequence: z.string().nullish(),
    usage: MsgcUsage,
  })
  .loose();
export type MessagesResponse = z.infer<typeof MessagesResponse>;

const StartedBlock = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() }).loose(),
  ResponseImageBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
]);

const BlockDelta = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text_delta'), text: z.string() }).loose(),
  z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }).loose(),
  z.object({ type: z.literal('thinking_delta'), thinking: z.string() }).loose(),
  z.object({ type: z.literal('signature_delta'), signature: z.string() }).loose(),
  z.object({ type: z.literal('citations_delta') }).loose(),
]);

export const MsgcErrorDetail = z.object({ type: z.string(), message: z.string() }).loose();

export const MsgcStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message_start'), message: MessagesResponse }).loose(),
  z.object({ type: z.literal('content_block_start'), index: z.number().int(), content_block: StartedBlock }).loose(),
  z.object({ type: z.literal('content_block_delta'), index: z.number().int(), delta: BlockDelta }).loose(),
  z.object({ type: z.literal('content_block_stop'), index: z.number().int() }).loose(),
  z
    .object({
      type: z.literal('message_delta'),
      delta: z.object({ stop_reason: MsgcStopReason.nullable(), stop_sequence: z.string().nullish() }).loose(),
      usage: z
        .object({ output_tokens: z.number().int().min(0), input_tokens: z.number().int().min(0).nullish() })
        .loose()
        .optional(),
    })
    .loose(),
  z.object({ type: z.literal('message_stop') }).loose(),
  z.object({ type: z.literal('ping') }).loose(),
  z.object({ type: z.literal('error'), error: MsgcErrorDetail }).loose(),
]);
export type MsgcStreamEvent = z.infer<typeof MsgcStreamEvent>;

/** The msgc error dialect, also what an Anthropic upstream answers on failure. */
export const MsgcErrorBody = z.object({ type: z.literal('error'), error: MsgcErrorDetail }).loose();
export type MsgcErrorBody = z.infer<typeof MsgcErrorBody>;
