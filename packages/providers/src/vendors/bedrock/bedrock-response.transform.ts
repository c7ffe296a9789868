// Bedrock Converse answers → IR: the whole answer, and the ConverseStream events (messageStart …
// metadata) as the event-stream reader hands them over, one `{event, data}` per message.
import { parseOrThrow } from '@gateway/contracts';
import type { z } from 'zod';
import type { ChatIrResponse, DecodeContext, IrOutputPart, IrStopReason, IrStreamEvent, IrUsage, SseMessage } from '../../ir/chat-ir.schema';
import { StreamDecoderBase } from '../../ir/stream-decoder.base';
import { estimateTextTokens } from '../../ir/token-estimator';
import { parseUpstreamBody } from '../../ir/upstream-error';
import {
  ContentBlockDeltaEvent,
  ContentBlockStartEvent,
  ContentBlockStopEvent,
  ConverseResponse,
  MessageStopEvent,
  MetadataEvent,
  type ConverseUsage,
} from './bedrock-answer.schema';
import { fromConverseStopReason } from './bedrock-stop-reason.map';

/** IR input counts every prompt token: Bedrock's cache reads and writes are added to its uncached input. */
export function irUsageOf(usage: ConverseUsage, thinking: string): IrUsage {
  const read = usage.cacheReadInputTokens ?? 0;
  const write = usage.cacheWriteInputTokens ?? 0;
  const out: IrUsage = { inputTokens: usage.inputTokens + read + write, outputTokens: usage.outputTokens };
  if (read) out.cacheReadTokens = read;
  if (write) out.cacheWriteTokens = write;
  if (thinking !== '') out.reasoningTokens = Math.min(usage.outputTokens, estimateTextTokens(thinking));
  return out;
}

/** A tool call the request did not ask for is a tool_use stop; the structured-answer tool alone is an answer. */
function stopReasonOf(reason: string, answeredByTool: boolean, hasToolCall: boolean): IrStopReason {
  const stop = fromConverseStopReason(reason);
  return answeredByTool && stop === 'tool_use' && !hasToolCall ? 'end_turn' : stop;
}

export function fromConverseResponse(body: unknown, context: DecodeContext): ChatIrResponse {
  const answer = parseUpstreamBody(() => parseOrThrow(ConverseResponse, body));
  const parts: IrOutputPart[] = [];
  let thinking = '';
  let answeredByTool = false;
  for (const block of answer.output.message.content) {
    if (block.text !== undefined) parts.push({ type: 'text', text: block.text });
    else if (block.toolUse && context.structuredOutputTool && block.toolUse.name === context.structuredOutputTool) {
      answeredByTool = true;
      parts.push({ type: 'text', text: JSON.stringify(block.toolUse.input ?? {}) });
    } else if (block.toolUse)
      parts.push({ type: 'tool_call', id: block.toolUse.toolUseId, name: block.toolUse.name, arguments: JSON.stringify(block.toolUse.input ?? {}) });
    else if (block.reasoningContent?.reasoningText) {
      thinking += block.reasoningContent.reasoningText.text;
      parts.push({
        type: 'reasoning',
        text: block.reasoningContent.reasoningText.text,
        signature: block.reasoningContent.reasoningText.signature ?? null,
        redacted: null,
      });
    } else if (block.reasoningContent?.redactedContent !== undefined)
      parts.push({ type: 'reasoning', text: '', signature: null, redacted: block.reasoningContent.redactedContent });
  }
  return {
    id: context.fallbackId,
    model: context.model,
    parts,
    stopReason: stopReasonOf(
      answer.stopReason,
      answeredByTool,
      parts.some((part) => part.type === 'tool_call'),
    ),
    stopSequence: null,
    usage: irUsageOf(answer.usage, thinking),
  };
}

type BlockKind = 'text' | 'tool' | 'answer' | 'thinking';

function parseEvent<T extends z.ZodType>(schema: T, data: string): z.infer<T> {
  return parseUpstreamBody(() => parseOrThrow(schema, JSON.parse(data)));
}

/**
 * ConverseStream → IR. Text and reasoning blocks have no start event: their first delta opens them.
 * The finish waits for `metadata`, which carries the usage after `messageStop`.
 */
export class BedrockStreamDecoder extends StreamDecoderBase {
  private readonly blocks = new Map<number, { kind: BlockKind; toolIndex: number }>();
  private toolCount = 0;
  private stopReason: string | null = null;
  private usage: ConverseUsage | null = null;
  private produced = '';
  private thinking = '';
  private answeredByTool = false;

  push(message: SseMessage): IrStreamEvent[] {
    if (this.finished) return [];
    const events: IrStreamEvent[] = [];
    if (!this.started) events.push(this.start(this.context.fallbackId, null));
    switch (message.event) {
      case 'contentBlockStart': {
        const event = parseEvent(ContentBlockStartEvent, message.data);
        const tool = event.start.toolUse;
        if (tool && this.context.structuredOutputTool && tool.name === this.context.structuredOutputTool) {
          this.answeredByTool = true;
          this.blocks.set(event.contentBlockIndex, { kind: 'answer', toolIndex: -1 });
        } else if (tool) {
          const toolIndex = this.toolCount++;
          this.blocks.set(event.contentBlockIndex, { kind: 'tool', toolIndex });
          events.push({ type: 'tool_call_start', index: toolIndex, id: tool.toolUseId, name: tool.name });
        }
        break;
      }
      case 'contentBlockDelta':
        events.push(...this.delta(parseEvent(ContentBlockDeltaEvent, message.data)));
        break;
      case 'contentBlockStop': {
        const event = parseEvent(ContentBlockStopEvent, message.data);
        if (this.blocks.has(event.contentBlockIndex)) events.push({ type: 'block_stop' });
        break;
      }
      case 'messageStop':
        this.stopReason = parseEvent(MessageStopEvent, message.data).stopReason;
        break;
      case 'metadata':
        this.usage = parseEvent(MetadataEvent, message.data).usage ?? null;
        events.push(this.finish());
        break;
    }
    return events;
  }

  private delta(event: z.infer<typeof ContentBlockDeltaEvent>): IrStreamEvent[] {
    const index = event.contentBlockIndex;
    const { delta } = event;
    let block = this.blocks.get(index);
    if (!block) {
      block = { kind: delta.reasoningContent ? 'thinking' : 'text', toolIndex: -1 };
      this.blocks.set(index, block);
    }
    if (delta.text !== undefined && delta.text !== '' && block.kind === 'text') return [this.text(delta.text)];
    if (delta.toolUse && delta.toolUse.input !== '' && block.kind === 'answer') return [this.text(delta.toolUse.input)];
    if (delta.toolUse && delta.toolUse.input !== '' && block.kind === 'tool') {
      this.produced += delta.toolUse.input;
      return [{ type: 'tool_call_delta', index: block.toolIndex, arguments: delta.toolUse.input }];
    }
    const reasoning = delta.reasoningContent;
    if (reasoning && block.kind === 'thinking') {
      if (reasoning.text !== undefined && reasoning.text !== '') {
        this.thinking += reasoning.text;
        this.produced += reasoning.text;
        return [{ type: 'reasoning_delta', text: reasoning.text }];
      }
      if (reasoning.signature !== undefined) return [{ type: 'reasoning_signature', signature: reasoning.signature }];
      if (reasoning.redactedContent !== undefined) return [{ type: 'reasoning_redacted', data: reasoning.redactedContent }];
    }
    return [];
  }

  private text(text: string): IrStreamEvent {
    this.produced += text;
    return { type: 'text_delta', text };
  }

  protected finish(): IrStreamEvent {
    this.finished = true;
    const usage = this.usage ?? { inputTokens: this.context.estimatedInputTokens, outputTokens: estimateTextTokens(this.produced) };
    return {
      type: 'finish',
      stopReason: stopReasonOf(this.stopReason ?? 'end_turn', this.answeredByTool, this.toolCount > 0),
      stopSequence: null,
      usage: irUsageOf(usage, this.thinking),
    };
  }
}
