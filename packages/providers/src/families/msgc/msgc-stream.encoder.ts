// IR events → the msgc event sequence: message_start, content_block_start, ping, content_block_delta
// (text_delta / input_json_delta), content_block_stop, message_delta (stop_reason + usage), message_stop.
import type { MessagesResponse, MsgcStopReason, MsgcStreamEvent } from '@gateway/contracts';
import type { IrStreamEncoder, IrStreamEvent, IrUsage } from '../../ir/chat-ir.schema';
import { sseEvent } from '../sse-frame';
import { msgcUsage } from './msgc-response.encoder';
import { toMsgcStopReason } from '../../ir/stop-reason.map';

/** One event of the stream, named by its type. */
function msgcEvent(event: MsgcStreamEvent): string {
  return sseEvent(event.type, event);
}

type StartedBlock = Extract<MsgcStreamEvent, { type: 'content_block_start' }>['content_block'];

type BlockKind = 'text' | 'tool' | 'thinking';

export class MsgcStreamEncoder implements IrStreamEncoder {
  private started = false;
  private finished = false;
  private pinged = false;
  private nextBlock = 0;
  private open: { kind: BlockKind; block: number; toolIndex: number } | null = null;
  /** Block index of each tool call, so a late argument delta still lands on its own block. */
  private readonly toolBlocks = new Map<number, number>();
  private inputTokens = 0;

  constructor(
    private readonly fallbackId: string,
    private readonly model: string,
  ) {}

  push(event: IrStreamEvent): string {
    if (this.finished) return '';
    let out = event.type === 'start' ? '' : this.ensureStarted();
    switch (event.type) {
      case 'start':
        if (this.started) return '';
        this.inputTokens = event.inputTokens ?? 0;
        return this.startFrame(event.id);
      case 'text_delta':
        if (this.open?.kind !== 'text') out += this.openBlock('text', -1, { type: 'text', text: '' });
        return out + msgcEvent({ type: 'content_block_delta', index: this.open!.block, delta: { type: 'text_delta', text: event.text } });
      case 'reasoning_delta':
        if (this.open?.kind !== 'thinking') out += this.openBlock('thinking', -1, { type: 'thinking', thinking: '', signature: '' });
        return out + msgcEvent({ type: 'content_block_delta', index: this.open!.block, delta: { type: 'thinking_delta', thinking: event.text } });
      case 'reasoning_signature':
        if (this.open?.kind !== 'thinking') return out;
        return (
          out +
          msgcEvent({
            type: 'content_block_delta',
            index: this.open.block,
            delta: { type: 'signature_delta', signature: event.signature },
          })
        );
      case 'reasoning_redacted':
        out += this.openBlock('thinking', -1, { type: 'redacted_thinking', data: event.data });
        return out + this.closeBlock();
      case 'tool_call_start':
        out += this.openBlock('tool', event.index, { type: 'tool_use', id: event.id, name: event.name, input: {} });
        this.toolBlocks.set(event.index, this.open!.block);
        return out;
      case 'tool_call_delta': {
        const block = this.toolBlocks.get(event.index);
        if (block === undefined || event.arguments === '') return out;
        return out + msgcEvent({ type: 'content_block_delta', index: block, delta: { type: 'input_json_delta', partial_json: event.arguments } });
      }
      case 'block_stop':
        return out + this.closeBlock();
      case 'image':
        out += this.openBlock('text', -1, { type: 'image', source: { type: 'base64', media_type: event.mediaType, data: event.data } });
        return out + this.closeBlock();
      case 'finish':
        return out + this.finish(toMsgcStopReason(event.stopReason), event.stopSequence, event.usage);
    }
  }

  end(): string {
    if (this.finished) return '';
    return this.ensureStarted() + this.finish('end_turn', null, { inputTokens: this.inputTokens, outputTokens: 0 });
  }

  private ensureStarted(): string {
    return this.started ? '' : this.startFrame(this.fallbackId);
  }

  private startFrame(id: string): string {
    this.started = true;
    const message: MessagesResponse = {
      id,
      type: 'message',
      role: 'assistant',
      model: this.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: this.inputTokens, output_tokens: 0 },
    };
    return msgcEvent({ type: 'message_start', message });
  }

  private openBlock(kind: BlockKind, toolIndex: number, contentBlock: StartedBlock): string {
    let out = this.closeBlock();
    const block = this.nextBlock++;
    this.open = { kind, block, toolIndex };
    out += msgcEvent({ type: 'content_block_start', index: block, content_block: contentBlock });
    if (!this.pinged) {
      this.pinged = true;
      out += msgcEvent({ type: 'ping' });
    }
    return out;
  }

  private closeBlock(): string {
    if (!this.open) return '';
    const index = this.open.block;
    this.open = null;
    return msgcEvent({ type: 'content_block_stop', index });
  }

  private finish(stopReason: MsgcStopReason, stopSequence: string | null, usage: IrUsage): string {
    this.finished = true;
    let out = this.closeBlock();
    if (!this.pinged) {
      this.pinged = true;
      out += msgcEvent({ type: 'ping' });
    }
    out += msgcEvent({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: stopSequence }, usage: msgcUsage(usage) });
    return out + msgcEvent({ type: 'message_stop' });
  }
}
