import type { DecodeContext, IrStreamDecoder, IrStreamEvent, SseMessage } from './chat-ir.schema';

/**
 * What every vendor's stream decoder shares: the start and finish bookkeeping, and an `end` that
 * closes a stream the upstream stopped without finishing (a start if none came, then the finish).
 */
export abstract class StreamDecoderBase implements IrStreamDecoder {
  protected started = false;
  protected finished = false;

  constructor(protected readonly context: DecodeContext) {}

  abstract push(message: SseMessage): IrStreamEvent[];

  end(): IrStreamEvent[] {
    if (this.finished) return [];
    const events: IrStreamEvent[] = [];
    if (!this.started) events.push(this.start(this.context.fallbackId, null));
    events.push(this.finish());
    return events;
  }

  protected start(id: string, inputTokens: number | null): IrStreamEvent {
    this.started = true;
    return { type: 'start', id, model: this.context.model, inputTokens };
  }

  /** The finish event, from what the stream said (usage estimated where it said none); the decoder is finished after it. */
  protected abstract finish(): IrStreamEvent;
}
