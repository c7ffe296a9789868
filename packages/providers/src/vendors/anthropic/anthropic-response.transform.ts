// Anthropic Messages answers → IR: the whole message, and the event stream (message_start … message_stop).
import { MessagesResponse, MsgcStreamEvent, parseOrThrow, type MsgcUsage } from '@gateway/contracts';
import type { ChatIrResponse, DecodeContext, IrOutputPart, IrStopReason, IrStreamEvent, IrUsage, SseMessage } from '../../ir/chat-ir.schema';
import { StreamDecoderBase } from '../../ir/stream-decoder.base';
import { fromMsgcStopReason } from '../../ir/stop-reason.map';
import { estimateTextTokens } from '../../ir/token-estimator';
import { parseUpstreamBody } from '../../ir/upstream-error';
import { anthropicErrorFromDetail } from './anthropic-error.transform';

type CacheUsage = Pick<MsgcUsage, 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'>;

/** Cached prompt tokens are still input tokens for usage and billing. */
function inputTokensOf(usage: CacheUsage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** The cache counts, where the upstream gave any. */
function cacheOf(usage: CacheUsage): Pick<IrUsage, 'cacheReadTokens' | 'cacheWriteTokens'> {
  const out: Pick<IrUsage, 'cacheReadTokens' | 'cacheWriteTokens'> = {};
  if (usage.cache_read_input_tokens) out.cacheReadTokens = usage.cache_read_input_tokens;
  if (usage.cache_creation_input_tokens) out.cacheWriteTokens = usage.cache_creation_input_tokens;
  return out;
}

/** Anthropic counts thinking inside output_tokens and reports no separate figure: the thinking text is estimated. */
function withReasoning(usage: IrUsage, thinking: string): IrUsage {
  return thinking === '' ? usage : { ...usage, reasoningTokens: Math.min(usage.outputTokens, estimateTextTokens(thinking)) };
}

export function fromAnthropicResponse(body: unknown, context: DecodeContext): ChatIrResponse {
  const message = parseUpstreamBody(() => parseOrThrow(MessagesResponse, body));
  const parts: IrOutputPart[] = [];
  let thinking = '';
  let answeredByTool = false;
  for (const block of message.content) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use' && context.structuredOutputTool && block.name === context.structuredOutputTool) {
      answeredByTool = true;
      parts.push({ type: 'text', text: JSON.stringify(block.input ?? {}) });
    } else if (block.type === 'tool_use') parts.push({ type: 'tool_call', id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
    else if (block.type === 'image') parts.push({ type: 'image', mediaType: block.source.media_type, data: block.source.data });
    else if (block.type === 'thinking') {
      thinking += block.thinking;
      parts.push({ type: 'reasoning', text: block.thinking, signature: block.signature ?? null, redacted: null });
    } else if (block.type === 'redacted_thinking') parts.push({ type: 'reasoning', text: '', signature: null, redacted: block.data });
  }
  const stopReason = fromMsgcStopReason(message.stop_reason);
  const usage = { inputTokens: inputTokensOf(message.usage), outputTokens: message.usage.output_tokens, ...cacheOf(message.usage) };
  return {
    id: message.id,
    model: context.model,
    parts,
    stopReason: answeredByTool && stopReason === 'tool_use' && !parts.some((part) => part.type === 'tool_call') ? 'end_turn' : stopReason,
    stopSequence: message.stop_sequence ?? null,
    usage: withReasoning(usage, thinking),
  };
}

type BlockKind = 'text' | 'tool' | 'answer' | 'thinking' | 'skip';

export class AnthropicStreamDecoder extends StreamDecoderBase {
  private inputTokens: number | null = null;
  private outputTokens: number | null = null;
  private stopReason: IrStopReason = 'end_turn';
  private stopSequence: string | null = null;
  /** Kind of each upstream block, and for tool_use blocks their order among tool calls. */
  private readonly blocks = new Map<number, { kind: BlockKind; toolIndex: number }>();
  private toolCount = 0;
  private produced = '';
  private thinking = '';
  private answeredByTool = false;
  private cache: Pick<IrUsage, 'cacheReadTokens' | 'cacheWriteTokens'> = {};

  push(message: SseMessage): IrStreamEvent[] {
    if (this.finished) return [];
    const event = parseUpstreamBody(() => parseOrThrow(MsgcStreamEvent, JSON.parse(message.data)));
    const events: IrStreamEvent[] = [];
    if (event.type === 'message_start') {
      this.inputTokens = inputTokensOf(event.message.usage);
      this.cache = cacheOf(event.message.usage);
      if (!this.started) events.push(this.start(event.message.id, this.inputTokens));
      return events;
    }
    if (!this.started && event.type !== 'ping') events.push(this.start(this.context.fallbackId, null));
    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          this.blocks.set(event.index, { kind: 'text', toolIndex: -1 });
          if (block.text !== '') events.push(this.text(block.text));
        } else if (block.type === 'tool_use' && this.context.structuredOutputTool && block.name === this.context.structuredOutputTool) {
          this.answeredByTool = true;
          this.blocks.set(event.index, { kind: 'answer', toolIndex: -1 });
        } else if (block.type === 'thinking') {
          this.blocks.set(event.index, { kind: 'thinking', toolIndex: -1 });
          if (block.thinking !== '') events.push(this.thought(block.thinking));
        } else if (block.type === 'redacted_thinking') {
          this.blocks.set(event.index, { kind: 'thinking', toolIndex: -1 });
          events.push({ type: 'reasoning_redacted', data: block.data });
        } else if (block.type === 'tool_use') {
          const toolIndex = this.toolCount++;
          this.blocks.set(event.index, { kind: 'tool', toolIndex });
          events.push({ type: 'tool_call_start', index: toolIndex, id: block.id, name: block.name });
        } else {
          this.blocks.set(event.index, { kind: 'skip', toolIndex: -1 });
          if (block.type === 'image') events.push({ type: 'image', mediaType: block.source.media_type, data: block.source.data });
        }
        break;
      }
      case 'content_block_delta': {
        const block = this.blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === 'text_delta' && block?.kind === 'text') events.push(this.text(delta.text));
        else if (delta.type === 'input_json_delta' && block?.kind === 'answer' && delta.partial_json !== '') events.push(this.text(delta.partial_json));
        else if (delta.type === 'thinking_delta' && block?.kind === 'thinking' && delta.thinking !== '') events.push(this.thought(delta.thinking));
        else if (delta.type === 'signature_delta' && block?.kind === 'thinking') events.push({ type: 'reasoning_signature', signature: delta.signature });
        else if (delta.type === 'input_json_delta' && block?.kind === 'tool' && delta.partial_json !== '') {
          this.produced += delta.partial_json;
          events.push({ type: 'tool_call_delta', index: block.toolIndex, arguments: delta.partial_json });
        }
        break;
      }
      case 'content_block_stop':
        if (this.blocks.get(event.index)?.kind !== 'skip') events.push({ type: 'block_stop' });
        break;
      case 'message_delta':
        this.stopReason = fromMsgcStopReason(event.delta.stop_reason);
        if (this.answeredByTool && this.toolCount === 0 && this.stopReason === 'tool_use') this.stopReason = 'end_turn';
        this.stopSequence = event.delta.stop_sequence ?? null;
        if (event.usage) {
          this.outputTokens = event.usage.output_tokens;
          if (event.usage.input_tokens != null && this.inputTokens === null) this.inputTokens = event.usage.input_tokens;
        }
        break;
      case 'message_stop':
        events.push(this.finish());
        break;
      case 'error':
        throw anthropicErrorFromDetail(event.error);
      case 'ping':
        break;
    }
    return events;
  }

  private text(text: string): IrStreamEvent {
    this.produced += text;
    return { type: 'text_delta', text };
  }

  private thought(text: string): IrStreamEvent {
    this.thinking += text;
    this.produced += text;
    return { type: 'reasoning_delta', text };
  }

  protected finish(): IrStreamEvent {
    this.finished = true;
    return {
      type: 'finish',
      stopReason: this.stopReason,
      stopSequence: this.stopSequence,
      usage: withReasoning(
        {
          inputTokens: this.inputTokens ?? this.context.estimatedInputTokens,
          outputTokens: this.outputTokens ?? estimateTextTokens(this.produced),
          ...this.cache,
        },
        this.thinking,
      ),
    };
  }
}
