// IR → a chat completions call to an OpenAI-compatible upstream. System parts lead as one system message;
// streams ask for usage (`stream_options.include_usage`) so every translated stream can end with it.
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import type { ChatIrRequest, IrMessage } from '../../ir/chat-ir.schema';
import { unsupported } from '../../ir/field-names';

type OaicMessageOut = Record<string, unknown>;

function imageUrl(part: Extract<IrMessage['parts'][number], { type: 'image' }>): string {
  return part.data !== null ? `data:${part.mediaType ?? 'image/png'};base64,${part.data}` : part.url!;
}

function encodeMessage(message: IrMessage, out: OaicMessageOut[]): void {
  if (message.role === 'tool') {
    for (const part of message.parts) {
      if (part.type === 'tool_result') out.push({ role: 'tool', tool_call_id: part.toolCallId, content: part.content });
    }
    return;
  }
  if (message.role === 'user') {
    const onlyText = message.parts.every((part) => part.type === 'text');
    const content = onlyText
      ? message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')
      : message.parts.map((part) =>
          part.type === 'image' ? { type: 'image_url', image_url: { url: imageUrl(part) } } : { type: 'text', text: part.type === 'text' ? part.text : '' },
        );
    out.push({ role: 'user', content });
    return;
  }
  let text = '';
  const toolCalls: unknown[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool_call') toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
  }
  out.push({ role: 'assistant', content: text === '' && toolCalls.length > 0 ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) });
}

function responseFormat(ir: ChatIrRequest): Record<string, unknown> | undefined {
  const format = ir.responseFormat;
  if (!format) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const spec: Record<string, unknown> = { name: format.name, schema: format.schema };
  if (format.description !== null) spec.description = format.description;
  if (format.strict !== null) spec.strict = format.strict;
  return { type: 'json_schema', json_schema: spec };
}

function toolChoice(ir: ChatIrRequest): unknown {
  const choice = ir.toolChoice;
  if (!choice) return undefined;
  if (choice.type === 'any') return 'required';
  if (choice.type === 'tool') return { type: 'function', function: { name: choice.name } };
  return choice.type;
}

export function toOpenaiChatBody(ir: ChatIrRequest): Record<string, unknown> {
  if (ir.topK !== null) throw unsupported(ir.family, 'topK', 'this upstream has no top-k sampling');
  if (ir.safetySettings !== null) throw unsupported(ir.family, 'safetySettings', 'this upstream takes no safety settings');
  if (ir.responseModalities?.includes('image')) throw unsupported(ir.family, 'responseModalities', 'this model cannot output images');
  const messages: OaicMessageOut[] = [];
  if (ir.system.length > 0) messages.push({ role: 'system', content: ir.system.map((part) => part.text).join('\n\n') });
  for (const message of ir.messages) encodeMessage(message, messages);
  const body: Record<string, unknown> = { model: ir.model, messages };
  if (ir.tools.length > 0) {
    body.tools = ir.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, ...(tool.description !== null ? { description: tool.description } : {}), parameters: tool.parameters },
    }));
  }
  const choice = toolChoice(ir);
  if (choice !== undefined) body.tool_choice = choice;
  if (ir.parallelToolCalls != null && ir.tools.length > 0) body.parallel_tool_calls = ir.parallelToolCalls;
  const format = responseFormat(ir);
  if (format) body.response_format = format;
  if (ir.reasoning) body.reasoning_effort = ir.reasoning.effort;
  if (ir.maxTokens !== null) body.max_tokens = ir.maxTokens;
  if (ir.temperature !== null) body.temperature = ir.temperature;
  if (ir.topP !== null) body.top_p = ir.topP;
  if (ir.presencePenalty !== null) body.presence_penalty = ir.presencePenalty;
  if (ir.frequencyPenalty !== null) body.frequency_penalty = ir.frequencyPenalty;
  if (ir.stop.length > 0) body.stop = ir.stop;
  if (ir.user !== null) body.user = ir.user;
  if (ir.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

export function toOpenaiRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (channel.apiKey) headers.authorization = `Bearer ${channel.apiKey}`;
  if (ir.stream) headers.accept = 'text/event-stream';
  const body = toOpenaiChatBody({ ...ir, model: channel.upstreamModel });
  return { method: 'POST', url: `${channel.baseUrl.replace(/\/+$/, '')}/chat/completions`, headers, body: JSON.stringify(body), stream: ir.stream };
}
