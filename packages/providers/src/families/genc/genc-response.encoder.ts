// IR answer → genc GenerateContentResponse.
import type { GencPart, GenerateContentResponse } from '@gateway/contracts';
import type { ChatIrResponse, IrOutputPart, IrUsage } from '../../ir/chat-ir.schema';
import { toGencFinishReason } from '../../ir/stop-reason.map';
import { parseUpstreamToolArguments } from '../../ir/tool-arguments';

export function gencPart(part: IrOutputPart): GencPart {
  if (part.type === 'text') return { text: part.text };
  if (part.type === 'tool_call') return { functionCall: { id: part.id, name: part.name, args: parseUpstreamToolArguments(part.arguments) } };
  if (part.type === 'reasoning') return { text: part.text, thought: true, ...(part.signature ? { thoughtSignature: part.signature } : {}) };
  return { inlineData: { mimeType: part.mediaType, data: part.data } };
}

/** Gemini counts thoughts apart from the candidates; the cached part of the prompt is inside promptTokenCount. */
export function gencUsage(usage: IrUsage) {
  const thoughts = usage.reasoningTokens ?? 0;
  return {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens - thoughts,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(usage.cacheReadTokens ? { cachedContentTokenCount: usage.cacheReadTokens } : {}),
  };
}

export function toGencResponse(response: ChatIrResponse): GenerateContentResponse {
  return {
    candidates: [
      {
        content: { role: 'model', parts: response.parts.filter((part) => part.type !== 'reasoning' || part.redacted === null).map(gencPart) },
        finishReason: toGencFinishReason(response.stopReason),
        index: 0,
      },
    ],
    usageMetadata: gencUsage(response.usage),
    modelVersion: response.model,
    responseId: response.id,
  };
}
