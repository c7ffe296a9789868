// IR answer → msgc message body.
import type { MessagesResponse } from '@gateway/contracts';
import type { ChatIrResponse, IrUsage } from '../../ir/chat-ir.schema';
import { toMsgcStopReason } from '../../ir/stop-reason.map';
import { parseUpstreamToolArguments } from '../../ir/tool-arguments';

export function toMsgcResponse(response: ChatIrResponse): MessagesResponse {
  const content: MessagesResponse['content'] = [];
  for (const part of response.parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'tool_call') content.push({ type: 'tool_use', id: part.id, name: part.name, input: parseUpstreamToolArguments(part.arguments) });
    else if (part.type === 'reasoning')
      content.push(
        part.redacted !== null
          ? { type: 'redacted_thinking', data: part.redacted }
          : { type: 'thinking', thinking: part.text, signature: part.signature ?? '' },
      );
    else content.push({ type: 'image', source: { type: 'base64', media_type: part.mediaType, data: part.data } });
  }
  return {
    id: response.id,
    type: 'message',
    role: 'assistant',
    model: response.model,
    content,
    stop_reason: toMsgcStopReason(response.stopReason),
    stop_sequence: response.stopSequence,
    usage: msgcUsage(response.usage),
  };
}

/** msgc counts cached prompt tokens apart: `input_tokens` is what was neither read from nor written to the cache. */
export function msgcUsage(usage: IrUsage): MessagesResponse['usage'] {
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  if (read === 0 && write === 0) return { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens };
  return {
    input_tokens: Math.max(0, usage.inputTokens - read - write),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  };
}
