// IR answer → msgc message body.
import type { MessagesResponse } from '@gateway/contracts';
import type { ChatIrResponse } from '../../ir/chat-ir.schema';
import { toMsgcStopReason } from '../../ir/stop-reason.map';
import { parseUpstreamToolArguments } from '../../ir/tool-arguments';

export function toMsgcResponse(response: ChatIrResponse): MessagesResponse {
  const content: MessagesResponse['content'] = [];
  for (const part of response.parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'tool_call') content.push({ type: 'tool_use', id: part.id, name: part.name, input: parseUpstreamToolArguments(part.arguments) });
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
    usage: { input_tokens: response.usage.inputTokens, output_tokens: response.usage.outputTokens },
  };
}
