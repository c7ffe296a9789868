// IR events → chat.completion.chunk frames, a final usage chunk, then `data: [DONE]`.
import type { ChatCompletionDelta, ChatCompletionStreamChunk, ChatFinishReason } from '@gateway/contracts';
import type { IrStreamEncoder, IrStreamEvent } from '../../ir/chat-ir.schema';
import { dataUrl, oaicUsage } from './oaic-response.encoder';
import { SSE_DONE, sseData } from '../sse-frame';
import { toOaicFinishReason } from '../../ir/stop-reason.map';

export class OaicStreamEncoder implements IrStreamEncoder {
  private id: string;
  private started = false;
  private finished = false;

  constructor(
    fallbackId: string,
    private readonly model: string,
    private readonly created = Math.floor(Date.now() / 1000),
  ) {
    this.id = fallbackId;
  }

  push(event: IrStreamEvent): string {
    if (this.finished) return '';
    if (event.type === 'start') {
      if (this.started) return '';
      this.id = event.id;
      return this.ensureStarted();
    }
    const out = this.ensureStarted();
    switch (event.type) {
      case 'text_delta':
        return out + this.chunk({ content: event.text });
      case 'reasoning_delta':
        return out + this.chunk({ reasoning_content: event.text });
      case 'reasoning_signature':
      case 'reasoning_redacted':
        return out;
      case 'tool_call_start':
        return out + this.chunk({ tool_calls: [{ index: event.index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] });
      case 'tool_call_delta':
        return event.arguments === '' ? out : out + this.chunk({ tool_calls: [{ index: event.index, function: { arguments: event.arguments } }] });
      case 'image':
        return out + this.chunk({ images: [{ type: 'image_url', image_url: { url: dataUrl(event.mediaType, event.data) } }] });
      case 'block_stop':
        return out;
      case 'finish':
        this.finished = true;
        return (
          out +
          this.chunk({}, toOaicFinishReason(event.stopReason)) +
          this.frame({ id: this.id, object: 'chat.completion.chunk', created: this.created, model: this.model, choices: [], usage: oaicUsage(event.usage) }) +
          SSE_DONE
        );
    }
  }

  end(): string {
    if (this.finished) return '';
    this.finished = true;
    return this.ensureStarted() + this.chunk({}, 'stop') + SSE_DONE;
  }

  private ensureStarted(): string {
    if (this.started) return '';
    this.started = true;
    return this.chunk({ role: 'assistant', content: '' });
  }

  private chunk(delta: ChatCompletionDelta, finishReason: ChatFinishReason | null = null): string {
    return this.frame({
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
  }

  private frame(chunk: ChatCompletionStreamChunk): string {
    return sseData(chunk);
  }
}
