// A deterministic local token estimate (count_tokens, and usage when an upstream gives none).
// A token is a run of letters/digits/underscore or one other non-space character, as the sandbox counts.
import { IMAGE_TOKEN_ESTIMATE } from '@gateway/contracts';
import type { ChatIrRequest, IrPart } from './chat-ir.schema';

const TOKEN = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

export function estimateTextTokens(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(text) !== null) count++;
  return count;
}

function partTokens(part: IrPart): number {
  switch (part.type) {
    case 'text':
      return estimateTextTokens(part.text);
    case 'image':
      return IMAGE_TOKEN_ESTIMATE;
    case 'tool_call':
      return estimateTextTokens(part.name) + estimateTextTokens(part.arguments);
    case 'tool_result':
      return estimateTextTokens(part.content);
    case 'reasoning':
      return estimateTextTokens(part.text);
  }
}

/** Input tokens of a request: system, every part of every message, and the tool definitions. */
export function countTokens(request: ChatIrRequest): number {
  let total = 0;
  for (const part of request.system) total += estimateTextTokens(part.text);
  for (const message of request.messages) for (const part of message.parts) total += partTokens(part);
  for (const tool of request.tools) {
    total += estimateTextTokens(tool.name) + estimateTextTokens(tool.description ?? '') + estimateTextTokens(JSON.stringify(tool.parameters));
  }
  return total;
}
