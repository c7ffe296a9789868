// OpenAI-compatible answers (parsed with the openai adapter's schemas) → IR: the whole body, and the chunk stream. The stream's finish waits for the
// usage chunk that follows finish_reason; an upstream that sends none gets a local estimate at the end.
import { parseOrThrow } from '@gateway/contracts';
import { extractUsage, type TokenUsage } from './openai.adapter';
import type { ChatIrResponse, DecodeContext, IrOutputPart, IrStopReason, IrStreamEvent, IrUsage, SseMessage } from '../../ir/chat-ir.schema';
import { StreamDecoderBase } from '../../ir/stream-decoder.base';
import { ChatCompletion, ChatCompletionChunk } from './openai-response.schema';
import { fromOaicFinishReason } from '../../ir/stop-reason.map';
import { parseUpstreamBody } from '../../ir/upstream-error';
import { estimateTextTokens } from '../../ir/token-estimator';

function irUsage(counted: TokenUsage): IrUsage {
  const usage: IrUsage = { inputTokens: counted.promptTokens, outputTokens: counted.completionTokens };
  if (counted.cachedTokens) usage.cacheReadTokens = counted.cachedTokens;
  if (counted.reasoningTokens) usage.reasoningTokens = counted.reasoningTokens;
  return usage;
}

export function fromOpenaiResponse(body: unknown, context: DecodeContext): ChatIrResponse {
  const completion = parseUpstreamBody(() => parseOrThrow(ChatCompletion, body));
  const message = completion.choices[0]!.message;
  const parts: IrOutputPart[] = [];
  if (message.reasoning_content) parts.push({ type: 'reasoning', text: message.reasoning_content, signature: null, redacted: null });
  if (message.content) parts.push({ type: 'text', text: message.content });
  for (const call of message.tool_calls ?? []) {
    parts.push({ type: 'tool_call', id: call.id ?? `call_${parts.length}`, name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' });
  }
  const hasToolCall = (message.tool_calls?.length ?? 0) > 0;
  const stopReason = fromOaicFinishReason(completion.choices[0]!.finish_reason);
  const counted = extractUsage(completion);
  const usage = counted ? irUsage(counted) : { inputTokens: context.estimatedInputTokens, outputTokens: estimateTextTokens(message.content ?? '') };
  return {
    id: completion.id,
    model: context.model,
    parts,
    stopReason: hasToolCall && stopReason === 'end_turn' ? 'tool_use' : stopReason,
    stopSequence: null,
    usage,
  };
}

export class OpenaiStreamDecoder extends StreamDecoderBase {
  private finishReason: IrStopReason | null = null;
  private usage: IrUsage | null = null;
  private readonly tools = new Set<number>();
  /** What was produced, kept only to estimate usage when the upstream reports none. */
  private produced = '';

  push(message: SseMessage): IrStreamEvent[] {
    if (this.finished || message.data === '[DONE]') return [];
    const chunk = parseUpstreamBody(() => parseOrThrow(ChatCompletionChunk, JSON.parse(message.data)));
    const events: IrStreamEvent[] = [];
    if (!this.started) events.push(this.start(chunk.id ?? this.context.fallbackId, null));
    const choice = chunk.choices.find((candidate) => candidate.index === 0);
    const delta = choice?.delta;
    if (delta?.reasoning_content) {
      this.produced += delta.reasoning_content;
      events.push({ type: 'reasoning_delta', text: delta.reasoning_content });
    }
    if (delta?.content) {
      this.produced += delta.content;
      events.push({ type: 'text_delta', text: delta.content });
    }
    for (const call of delta?.tool_calls ?? []) {
      const index = call.index ?? 0;
      if (!this.tools.has(index)) {
        this.tools.add(index);
        const name = call.function?.name ?? '';
        this.produced += name;
        events.push({ type: 'tool_call_start', index, id: call.id ?? `call_${index}`, name });
      }
      const args = call.function?.arguments;
      if (args) {
        this.produced += args;
        events.push({ type: 'tool_call_delta', index, arguments: args });
      }
    }
    if (choice?.finish_reason) this.finishReason = fromOaicFinishReason(choice.finish_reason);
    const counted = extractUsage(chunk);
    if (counted) this.usage = irUsage(counted);
    if (this.finishReason !== null && this.usage !== null) events.push(this.finish());
    return events;
  }

  protected finish(): IrStreamEvent {
    this.finished = true;
    const reason = this.finishReason ?? (this.tools.size > 0 ? 'tool_use' : 'end_turn');
    const usage = this.usage ?? { inputTokens: this.context.estimatedInputTokens, outputTokens: estimateTextTokens(this.produced) };
    return { type: 'finish', stopReason: this.tools.size > 0 && reason === 'end_turn' ? 'tool_use' : reason, stopSequence: null, usage };
  }
}
