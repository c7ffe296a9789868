// What the oaic responses routes answer: the response object (created, or stored and read back), and with
// `stream: true` its typed events. Item and event types the gateway does not write itself pass on from an
// upstream with a responses endpoint of its own; each is matched by its own type.
import { z } from 'zod';

const Count = z.number().int().nonnegative();

/** A string of any value but the listed ones: the catch-all of a union that keeps its typed branches exact. */
function otherThan(types: readonly string[]) {
  return z.string().regex(new RegExp(`^(?!(${types.map((t) => t.replace(/\./g, '\\.')).join('|')})$)`), `a type other than ${types.join(', ')}`);
}

export const ResponseItemStatus = z.enum(['in_progress', 'completed', 'incomplete']);
export type ResponseItemStatus = z.infer<typeof ResponseItemStatus>;

export const ResponseOutputText = z.looseObject({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.looseObject({})),
  logprobs: z.array(z.looseObject({})).optional(),
});
export type ResponseOutputText = z.infer<typeof ResponseOutputText>;

export const ResponseMessageOutput = z.looseObject({
  id: z.string(),
  type: z.literal('message'),
  status: ResponseItemStatus,
  role: z.literal('assistant'),
  content: z.array(z.union([ResponseOutputText, z.looseObject({ type: otherThan(['output_text']) })])),
});
export type ResponseMessageOutput = z.infer<typeof ResponseMessageOutput>;

/** The model's shown reasoning, as a summary. */
export const ResponseReasoningOutput = z.looseObject({
  id: z.string(),
  type: z.literal('reasoning'),
  summary: z.array(z.looseObject({ type: z.literal('summary_text'), text: z.string() })),
});
export type ResponseReasoningOutput = z.infer<typeof ResponseReasoningOutput>;

export const ResponseFunctionCallOutput = z.looseObject({
  id: z.string(),
  type: z.literal('function_call'),
  status: ResponseItemStatus.optional(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string().describe('The arguments as a JSON text'),
});
export type ResponseFunctionCallOutput = z.infer<typeof ResponseFunctionCallOutput>;

const TYPED_ITEMS = ['message', 'reasoning', 'function_call'] as const;

export const ResponseOutputItem = z.union([
  ResponseMessageOutput,
  ResponseReasoningOutput,
  ResponseFunctionCallOutput,
  z.looseObject({ type: otherThan(TYPED_ITEMS), id: z.string().optional() }).describe('Another item type, as the upstream wrote it'),
]);
export type ResponseOutputItem = z.infer<typeof ResponseOutputItem>;

export const ResponseUsage = z.looseObject({
  input_tokens: Count,
  input_tokens_details: z.looseObject({ cached_tokens: Count }),
  output_tokens: Count,
  output_tokens_details: z.looseObject({ reasoning_tokens: Count }),
  total_tokens: Count,
});
export type ResponseUsage = z.infer<typeof ResponseUsage>;

export const ResponseResource = z
  .looseObject({
    id: z.string(),
    object: z.literal('response'),
    created_at: z.number().int().describe('Unix seconds'),
    status: z.enum(['completed', 'failed', 'in_progress', 'cancelled', 'queued', 'incomplete']),
    error: z.looseObject({ code: z.string(), message: z.string() }).nullish(),
    incomplete_details: z.looseObject({ reason: z.string() }).nullish(),
    instructions: z.union([z.string(), z.array(z.looseObject({}))]).nullish(),
    max_output_tokens: z.number().int().nullish(),
    model: z.string(),
    output: z.array(ResponseOutputItem),
    output_text: z.string().optional(),
    parallel_tool_calls: z.boolean().optional(),
    temperature: z.number().nullish(),
    tool_choice: z.union([z.string(), z.looseObject({})]).optional(),
    tools: z.array(z.looseObject({})).optional(),
    top_p: z.number().nullish(),
    metadata: z.record(z.string(), z.string()).nullish(),
    usage: ResponseUsage.optional().describe('Once the response is done'),
  })
  .describe('A response');
export type ResponseResource = z.infer<typeof ResponseResource>;

const Sequenced = { sequence_number: Count };
const InItem = { item_id: z.string(), output_index: Count };
const InContent = { ...InItem, content_index: Count };
const InSummary = { ...InItem, summary_index: Count };

const LIFECYCLE = ['response.created', 'response.in_progress', 'response.completed', 'response.incomplete', 'response.failed'] as const;

/** The events the gateway writes when it answers a responses request through chat. */
export const GatewayResponseStreamEvent = z.union([
  z.looseObject({ type: z.enum(LIFECYCLE), ...Sequenced, response: ResponseResource }),
  z.looseObject({ type: z.enum(['response.output_item.added', 'response.output_item.done']), ...Sequenced, output_index: Count, item: ResponseOutputItem }),
  z.looseObject({ type: z.enum(['response.content_part.added', 'response.content_part.done']), ...Sequenced, ...InContent, part: ResponseOutputText }),
  z.looseObject({
    type: z.literal('response.output_text.delta'),
    ...Sequenced,
    ...InContent,
    delta: z.string(),
    logprobs: z.array(z.looseObject({})).optional(),
  }),
  z.looseObject({
    type: z.literal('response.output_text.done'),
    ...Sequenced,
    ...InContent,
    text: z.string(),
    logprobs: z.array(z.looseObject({})).optional(),
  }),
  z.looseObject({ type: z.literal('response.reasoning_summary_text.delta'), ...Sequenced, ...InSummary, delta: z.string() }),
  z.looseObject({ type: z.literal('response.reasoning_summary_text.done'), ...Sequenced, ...InSummary, text: z.string() }),
  z.looseObject({ type: z.literal('response.function_call_arguments.delta'), ...Sequenced, ...InItem, delta: z.string() }),
  z.looseObject({ type: z.literal('response.function_call_arguments.done'), ...Sequenced, ...InItem, name: z.string().optional(), arguments: z.string() }),
  z.looseObject({ type: z.literal('error'), ...Sequenced, code: z.string().nullish(), message: z.string(), param: z.string().nullish() }),
]);
export type GatewayResponseStreamEvent = z.infer<typeof GatewayResponseStreamEvent>;

const TYPED_EVENTS = [
  ...LIFECYCLE,
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  'error',
] as const;

/** One event of a streamed response: its SSE `event:` line names its `type`. */
export const ResponseStreamEvent = z
  .union([
    ...GatewayResponseStreamEvent.options,
    z.looseObject({ type: otherThan(TYPED_EVENTS), ...Sequenced }).describe('Another event type, as the upstream wrote it'),
  ])
  .describe('One event of a streamed response');
export type ResponseStreamEvent = z.infer<typeof ResponseStreamEvent>;
