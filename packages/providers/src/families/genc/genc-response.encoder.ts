// IR answer → genc GenerateContentResponse.
import type { GencPart, GenerateContentResponse } from '@gateway/contracts';
import type { ChatIrResponse, IrOutputPart, IrUsage } from '../../ir/chat-ir.schema';
import { toGencFinishReason } from '../../ir/stop-reason.map';
import { parseUpstreamToolArguments } from '../../ir/tool-arguments';

export function gencPart(part: IrOutputPart): GencPart {
  if (part.type === 'text') return { text: part.text };
  if (part.type === 'tool_call') return { functionCall: { id: part.id, name: part.name, args: parseUpstreamToolArguments(part.arguments) } };
  return { inlineData: { mimeType: part.mediaType, data: part.data } };
}

export function gencUsage(usage: IrUsage) {
  return { promptTokenCount: usage.inputTokens, candidatesTokenCount: usage.outputTokens, totalTokenCount: usage.inputTokens + usage.outputTokens };
}

export function toGencResponse(response: ChatIrResponse): GenerateContentResponse {
  return {
    candidates: [{ content: { role: 'model', parts: response.parts.map(gencPart) }, finishReason: toGencFinishReason(response.stopReason), index: 0 }],
    usageMetadata: gencUsage(response.usage),
    modelVersion: response.model,
    responseId: response.id,
  };
}
