// Gemini answers → IR: the whole response, and the SSE chunks of streamGenerateContent. Function calls
// arrive whole in one part; calls without an id get one so id-linked families can answer them.
import { GenerateContentResponse, parseOrThrow, type GencUsageMetadata } from '@gateway/contracts';
import { randomBytes } from 'node:crypto';
import type { ChatIrResponse, DecodeContext, IrOutputPart, IrStreamEvent, IrUsage, SseMessage } from '../../ir/chat-ir.schema';
import { StreamDecoderBase } from '../../ir/stream-decoder.base';
import { fromGencFinishReason } from '../../ir/stop-reason.map';
import { estimateTextTokens } from '../../ir/token-estimator';
import { parseUpstreamBody } from '../../ir/upstream-error';

export function geminiCallId(): string {
  return `call_${randomBytes(9).toString('base64url')}`;
}

/** Thoughts are output (billed as such); the cached part of the prompt is still prompt. */
function usageOf(metadata: GencUsageMetadata | undefined, context: DecodeContext, produced: string): IrUsage {
  const usage: IrUsage = {
    inputTokens: metadata?.promptTokenCount ?? context.estimatedInputTokens,
    outputTokens:
      metadata?.candidatesTokenCount !== undefined ? metadata.candidatesTokenCount + (metadata.thoughtsTokenCount ?? 0) : estimateTextTokens(produced),
  };
  if (metadata?.thoughtsTokenCount) usage.reasoningTokens = metadata.thoughtsTokenCount;
  if (metadata?.cachedContentTokenCount) usage.cacheReadTokens = metadata.cachedContentTokenCount;
  return usage;
}

export function fromGeminiResponse(body: unknown, context: DecodeContext): ChatIrResponse {
  const response = parseUpstreamBody(() => parseOrThrow(GenerateContentResponse, body));
  const candidate = response.candidates?.[0];
  const parts: IrOutputPart[] = [];
  let text = '';
  for (const part of candidate?.content?.parts ?? []) {
    if (part.text !== undefined) {
      if (part.thought === true) {
        parts.push({ type: 'reasoning', text: part.text, signature: part.thoughtSignature ?? null, redacted: null });
        continue;
      }
      text += part.text;
      parts.push({ type: 'text', text: part.text });
    } else if (part.functionCall) {
      parts.push({
        type: 'tool_call',
        id: part.functionCall.id ?? geminiCallId(),
        name: part.functionCall.name,
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      });
    } else if (part.inlineData) {
      parts.push({ type: 'image', mediaType: part.inlineData.mimeType, data: part.inlineData.data });
    }
  }
  const hasToolCall = parts.some((part) => part.type === 'tool_call');
  const blocked = !candidate && response.promptFeedback?.blockReason !== undefined;
  return {
    id: response.responseId ?? context.fallbackId,
    model: context.model,
    parts,
    stopReason: blocked ? 'content_filter' : fromGencFinishReason(candidate?.finishReason, hasToolCall),
    stopSequence: null,
    usage: usageOf(response.usageMetadata, context, text),
  };
}

export class GeminiStreamDecoder extends StreamDecoderBase {
  private toolCount = 0;
  private finishReason: string | undefined;
  private blocked = false;
  private usage: GencUsageMetadata | undefined;
  private produced = '';

  push(message: SseMessage): IrStreamEvent[] {
    if (this.finished) return [];
    const chunk = parseUpstreamBody(() => parseOrThrow(GenerateContentResponse, JSON.parse(message.data)));
    const events: IrStreamEvent[] = [];
    if (!this.started) events.push(this.start(chunk.responseId ?? this.context.fallbackId, chunk.usageMetadata?.promptTokenCount ?? null));
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.text !== undefined && part.thought === true) {
        if (part.text !== '') events.push({ type: 'reasoning_delta', text: part.text });
      } else if (part.text !== undefined) {
        if (part.text === '') continue;
        this.produced += part.text;
        events.push({ type: 'text_delta', text: part.text });
      } else if (part.functionCall) {
        const index = this.toolCount++;
        const args = JSON.stringify(part.functionCall.args ?? {});
        this.produced += args;
        events.push(
          { type: 'tool_call_start', index, id: part.functionCall.id ?? geminiCallId(), name: part.functionCall.name },
          { type: 'tool_call_delta', index, arguments: args },
          { type: 'block_stop' },
        );
      } else if (part.inlineData) {
        events.push({ type: 'image', mediaType: part.inlineData.mimeType, data: part.inlineData.data });
      }
    }
    if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
    if (!candidate && chunk.promptFeedback?.blockReason !== undefined) this.blocked = true;
    if (candidate?.finishReason) this.finishReason = candidate.finishReason;
    if ((this.finishReason !== undefined || this.blocked) && this.usage !== undefined) events.push(this.finish());
    return events;
  }

  protected finish(): IrStreamEvent {
    this.finished = true;
    const stopReason = this.blocked ? 'content_filter' : fromGencFinishReason(this.finishReason, this.toolCount > 0);
    return { type: 'finish', stopReason, stopSequence: null, usage: usageOf(this.usage, this.context, this.produced) };
  }
}
