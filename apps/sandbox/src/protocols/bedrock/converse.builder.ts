// Converse on the sandbox's Claude: the request is read as the Messages request it stands for (cache
// points become cache_control breakpoints, reasoning blocks thinking), planned by the Anthropic builder,
// and the plan rendered as a Converse answer or as the ConverseStream event sequence.
import type { MessagesRequest, MsgcContentBlock, MsgcMessage, MsgcTool } from '@gateway/contracts';
import { truncateTokens } from '../../core/tokenizer';
import type { MessagePlan } from '../anthropic/messages.builder';
import type { ConverseContentBlock, ConverseRequest } from './converse.schema';

/** Converse has no output limit of its own: the sandbox's Claude writes at most this many tokens by default. */
export const CONVERSE_DEFAULT_MAX_TOKENS = 4096;

type Block = MsgcContentBlock & { cache_control?: { type: 'ephemeral' } };

/** Marks the block before a cache point, as a breakpoint closes the prefix that precedes it. */
function markLast(blocks: { cache_control?: unknown }[]): void {
  const last = blocks[blocks.length - 1];
  if (last) last.cache_control = { type: 'ephemeral' };
}

type ToolResultContent = NonNullable<ConverseContentBlock['toolResult']>['content'];

function toolResultText(content: ToolResultContent): string {
  return content.map((item) => item.text ?? (item.json !== undefined ? JSON.stringify(item.json) : item.document ? `[${item.document.name}]` : '')).join('');
}

function blocksOf(content: ConverseContentBlock[]): Block[] {
  const blocks: Block[] = [];
  for (const block of content) {
    if (block.cachePoint) markLast(blocks);
    else if (block.text !== undefined) blocks.push({ type: 'text', text: block.text });
    else if (block.image)
      blocks.push({ type: 'image', source: { type: 'base64', media_type: `image/${block.image.format}`, data: block.image.source.bytes! } });
    else if (block.document) blocks.push({ type: 'text', text: block.document.source.text ?? `[${block.document.name}]` });
    else if (block.toolUse) blocks.push({ type: 'tool_use', id: block.toolUse.toolUseId, name: block.toolUse.name, input: objectOf(block.toolUse.input) });
    else if (block.toolResult)
      blocks.push({
        type: 'tool_result',
        tool_use_id: block.toolResult.toolUseId,
        content: toolResultText(block.toolResult.content),
        ...(block.toolResult.status === 'error' ? { is_error: true } : {}),
      });
    else if (block.reasoningContent?.reasoningText)
      blocks.push({ type: 'thinking', thinking: block.reasoningContent.reasoningText.text, signature: block.reasoningContent.reasoningText.signature ?? '' });
    else if (block.reasoningContent?.redactedContent !== undefined) blocks.push({ type: 'redacted_thinking', data: block.reasoningContent.redactedContent });
  }
  return blocks;
}

function objectOf(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input };
}

/** The Messages request a Converse call stands for, so the Anthropic builder plans its answer. */
export function asMessagesRequest(modelId: string, request: ConverseRequest): MessagesRequest {
  const messages: MsgcMessage[] = request.messages.map((message) => ({ role: message.role, content: blocksOf(message.content) }));
  const system: { type: 'text'; text: string; cache_control?: unknown }[] = [];
  for (const block of request.system ?? []) {
    if (block.cachePoint) markLast(system);
    else system.push({ type: 'text', text: block.text! });
  }
  const tools: (MsgcTool & { cache_control?: unknown })[] = [];
  for (const tool of request.toolConfig?.tools ?? []) {
    if (tool.cachePoint) markLast(tools);
    else
      tools.push({
        name: tool.toolSpec!.name,
        ...(tool.toolSpec!.description !== undefined ? { description: tool.toolSpec!.description } : {}),
        input_schema: { type: 'object', ...tool.toolSpec!.inputSchema.json },
      });
  }
  const choice = request.toolConfig?.toolChoice;
  const fields = request.additionalModelRequestFields;
  const thinking = fields?.thinking ?? fields?.reasoning_config;
  const inference = request.inferenceConfig;
  const jsonSchema = request.outputConfig?.textFormat?.structure.jsonSchema;
  return {
    model: modelId,
    max_tokens: inference?.maxTokens ?? CONVERSE_DEFAULT_MAX_TOKENS,
    messages,
    ...(system.length > 0 ? { system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(choice ? { tool_choice: choice.tool ? { type: 'tool', name: choice.tool.name } : { type: choice.any ? 'any' : 'auto' } } : {}),
    ...(thinking ? { thinking } : {}),
    ...(inference?.stopSequences ? { stop_sequences: inference.stopSequences } : {}),
    ...(jsonSchema ? { output_format: { type: 'json_schema', schema: JSON.parse(jsonSchema.schema) as Record<string, unknown> } } : {}),
  };
}

export type ConverseStopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'guardrail_intervened' | 'content_filtered';

/** What a Converse answer is made of: the plan, and how the sandbox's controls bent it. */
export interface ConverseAnswer {
  plan: MessagePlan;
  stopReason: ConverseStopReason;
  latencyMs: number;
}

/** A text answer padded to `tokens` tokens (the `long` control), still held to the output limit. */
export function lengthen(plan: MessagePlan, tokens: number, maxTokens: number): MessagePlan {
  if (plan.kind !== 'text' || tokens <= plan.pieces.length) return plan;
  const words = Array.from({ length: tokens - plan.pieces.length }, (_, i) => ` word${i + 1}`).join('');
  const cut = truncateTokens(plan.text + words, maxTokens);
  return {
    ...plan,
    text: cut.text,
    pieces: cut.tokens,
    stopReason: cut.truncated ? 'max_tokens' : plan.stopReason,
    usage: { ...plan.usage, output_tokens: plan.usage.output_tokens - plan.pieces.length + cut.tokens.length },
  };
}

export function stopReasonOf(plan: MessagePlan): ConverseStopReason {
  return plan.kind === 'text' ? plan.stopReason : 'tool_use';
}

export function converseContent(plan: MessagePlan): Record<string, unknown>[] {
  const content: Record<string, unknown>[] = [];
  if (plan.thought) content.push({ reasoningContent: { reasoningText: { text: plan.thought.text, signature: plan.thought.signature } } });
  if (plan.kind === 'text') content.push({ text: plan.text });
  else content.push({ toolUse: { toolUseId: plan.call.id, name: plan.call.name, input: plan.call.input } });
  return content;
}

export function converseUsage(plan: MessagePlan): Record<string, number> {
  const usage = plan.usage;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.input_tokens + usage.output_tokens + cacheRead + cacheWrite,
    ...(usage.cache_read_input_tokens !== undefined ? { cacheReadInputTokens: cacheRead, cacheWriteInputTokens: cacheWrite } : {}),
  };
}

export function converseBody(answer: ConverseAnswer): Record<string, unknown> {
  return {
    output: { message: { role: 'assistant', content: converseContent(answer.plan) } },
    stopReason: answer.stopReason,
    usage: converseUsage(answer.plan),
    metrics: { latencyMs: answer.latencyMs },
  };
}

/** A ConverseStream event: its `:event-type` and JSON payload. */
export interface ConverseEvent {
  event: string;
  payload: Record<string, unknown>;
}

export function converseEvents(answer: ConverseAnswer): ConverseEvent[] {
  const { plan } = answer;
  const events: ConverseEvent[] = [{ event: 'messageStart', payload: { role: 'assistant' } }];
  let index = 0;
  const delta = (contentBlockIndex: number, value: Record<string, unknown>): ConverseEvent => ({
    event: 'contentBlockDelta',
    payload: { contentBlockIndex, delta: value },
  });
  if (plan.thought) {
    events.push(delta(index, { reasoningContent: { text: plan.thought.text } }), delta(index, { reasoningContent: { signature: plan.thought.signature } }), {
      event: 'contentBlockStop',
      payload: { contentBlockIndex: index },
    });
    index += 1;
  }
  if (plan.kind === 'text') {
    for (const piece of plan.pieces) events.push(delta(index, { text: piece }));
  } else {
    events.push({ event: 'contentBlockStart', payload: { contentBlockIndex: index, start: { toolUse: { toolUseId: plan.call.id, name: plan.call.name } } } });
    for (const piece of plan.argumentPieces) events.push(delta(index, { toolUse: { input: piece } }));
  }
  events.push(
    { event: 'contentBlockStop', payload: { contentBlockIndex: index } },
    { event: 'messageStop', payload: { stopReason: answer.stopReason } },
    { event: 'metadata', payload: { usage: converseUsage(plan), metrics: { latencyMs: answer.latencyMs } } },
  );
  return events;
}
