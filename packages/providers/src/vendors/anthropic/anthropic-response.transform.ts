// Anthropic Messages answers → IR: the whole message, and the event stream (message_start … message_stop).
import { MessagesResponse, MsgcStreamEvent, parseOrThrow, type MsgcUsage } from '@gateway/contracts';
import type { ChatIrResponse, DecodeContext, IrOutputPart, IrStopReason, IrStreamEvent, SseMessage } from '../../ir/chat-ir.schema';
import { StreamDecoderBase } from '../../ir/stream-decoder.base';
import { fromMsgcStopReason } from '../../ir/stop-reason.map';
import { estimateTextTokens } from '../../ir/token-estimator';
import { parseUpstreamBody } from '../../ir/upstream-error';
import { anthropicErrorFromDetail } from './anthropic-error.transform';

/** Cached prompt tokens are still input tokens for usage and billing. */
function inputTokensOf(usage: Pick<MsgcUsage, 'input_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'>): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

export function fromAnthropicResponse(body: unknown, context: DecodeContext): ChatIrResponse {
  const message = parseUpstreamBody(() => parseOrThrow(MessagesResponse, body));
  const parts: IrOutputPart[] = [];
  for (const block of message.content) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') parts.push({ type: 'tool_call', id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
    else if (block.type === 'image') parts.push({ type: 'image', mediaType: block.source.media_type, data: block.source.data });
  }
  return {
    id: message.id,
    model: context.model,
    parts,
    stopReason: fromMsgcStopReason(message.stop_reason),
    stopSequence: message.stop_sequence ?? null,
    usage: { inputTokens: inputTokensOf(message.usage), outputTokens: message.usage.output_tokens },
  };
}

type BlockKind = 'text' | 'tool' | 'skip';

export class AnthropicStreamDecoder extends StreamDecoderBase {
  private inputTokens: number | null = null;
  private outputTokens: number | null = null;
  private stopReason: IrStopReason = 'end_turn';
  private stopSequence: string | null = null;
  /** Kind of each upstream block, and for tool_use blocks their order among tool calls. */
  private readonly blocks = new Map<number, { kind: BlockKind; toolIndex: number }>();
  private toolCount = 0;
  private produced = '';

  push(message: SseMessage): IrStreamEvent[] {
    if (this.finished) return [];
    const event = parseUpstreamBody(() => parseOrThrow(MsgcStreamEvent, JSON.parse(message.data)));
    const events: IrStreamEvent[] = [];
    if (event.type === 'message_start') {
      this.inputTokens = inputTokensOf(event.message.usage);
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

  protected finish(): IrStreamEvent {
    this.finished = true;
    return {
      type: 'finish',
      stopReason: this.stopReason,
      stopSequence: this.stopSequence,
      usage: {
        inputTokens: this.inputTokens ?? this.context.estimatedInputTokens,
        outputTokens: this.outputTokens ?? estimateTextTokens(this.produced),
      },
    };
  }
}
