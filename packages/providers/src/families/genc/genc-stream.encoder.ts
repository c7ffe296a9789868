// IR events → genc `data: {candidates:[...]}` chunks. Gemini sends a function call whole, so argument
// deltas are gathered and the call goes out complete when its block closes or the answer finishes.
import type { GencPart, GenerateContentResponse } from '@gateway/contracts';
import type { IrStreamEncoder, IrStreamEvent } from '../../ir/chat-ir.schema';
import { gencUsage } from './genc-response.encoder';
import { sseData } from '../sse-frame';
import { toGencFinishReason } from '../../ir/stop-reason.map';
import { parseUpstreamToolArguments } from '../../ir/tool-arguments';

interface GatheredCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

export class GencStreamEncoder implements IrStreamEncoder {
  private id: string;
  private finished = false;
  private readonly calls: GatheredCall[] = [];

  constructor(
    fallbackId: string,
    private readonly model: string,
  ) {
    this.id = fallbackId;
  }

  push(event: IrStreamEvent): string {
    if (this.finished) return '';
    switch (event.type) {
      case 'start':
        this.id = event.id;
        return '';
      case 'text_delta':
        return event.text === '' ? '' : this.chunk([{ text: event.text }]);
      case 'reasoning_delta':
        return event.text === '' ? '' : this.chunk([{ text: event.text, thought: true }]);
      case 'reasoning_signature':
      case 'reasoning_redacted':
        return '';
      case 'tool_call_start':
        this.calls.push({ index: event.index, id: event.id, name: event.name, arguments: '' });
        return '';
      case 'tool_call_delta': {
        const call = this.calls.find((c) => c.index === event.index);
        if (call) call.arguments += event.arguments;
        return '';
      }
      case 'block_stop':
        return this.calls.length > 0 ? this.chunk(this.takeCalls()) : '';
      case 'image':
        return this.chunk([{ inlineData: { mimeType: event.mediaType, data: event.data } }]);
      case 'finish': {
        this.finished = true;
        const parts = this.calls.length > 0 ? this.takeCalls() : [{ text: '' }];
        return this.chunk(parts, toGencFinishReason(event.stopReason), gencUsage(event.usage));
      }
    }
  }

  end(): string {
    if (this.finished) return '';
    this.finished = true;
    return this.chunk(this.calls.length > 0 ? this.takeCalls() : [{ text: '' }], 'STOP');
  }

  private takeCalls(): GencPart[] {
    const parts = this.calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: parseUpstreamToolArguments(call.arguments) } }));
    this.calls.length = 0;
    return parts;
  }

  private chunk(parts: GencPart[], finishReason?: string, usageMetadata?: ReturnType<typeof gencUsage>): string {
    const candidate = { content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) };
    const chunk: GenerateContentResponse = {
      candidates: [candidate],
      ...(usageMetadata ? { usageMetadata } : {}),
      modelVersion: this.model,
      responseId: this.id,
    };
    return sseData(chunk);
  }
}
