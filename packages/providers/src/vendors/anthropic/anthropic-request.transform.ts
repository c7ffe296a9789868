// IR → an Anthropic Messages call. System parts go to the top-level `system`; tool results become
// tool_result blocks in a user turn; consecutive turns of one role are merged, as the protocol alternates.
import { GatewayError } from '@gateway/contracts';
import type { ChatIrRequest, IrMessage } from '../../ir/chat-ir.schema';
import { unsupported } from '../../ir/field-names';
import { parseToolArguments } from '../../ir/tool-arguments';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';

export const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires max_tokens; families that leave it out get this. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

type Block = Record<string, unknown>;
interface Turn {
  role: 'user' | 'assistant';
  content: Block[];
}

function blocksOf(message: IrMessage, family: ChatIrRequest['family']): Block[] {
  const blocks: Block[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        // The protocol refuses empty text blocks.
        if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        break;
      case 'image':
        blocks.push({
          type: 'image',
          source: part.data !== null ? { type: 'base64', media_type: part.mediaType ?? 'image/png', data: part.data } : { type: 'url', url: part.url },
        });
        break;
      case 'tool_call':
        blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: parseToolArguments(part.arguments, family === 'genc' ? 'contents' : 'messages') });
        break;
      case 'tool_result':
        blocks.push({ type: 'tool_result', tool_use_id: part.toolCallId, content: part.content, ...(part.isError ? { is_error: true } : {}) });
        break;
    }
  }
  return blocks;
}

function turnsOf(ir: ChatIrRequest): Turn[] {
  const turns: Turn[] = [];
  for (const message of ir.messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = blocksOf(message, ir.family);
    if (content.length === 0) continue;
    const last = turns[turns.length - 1];
    if (last?.role === role) for (const block of content) last.content.push(block);
    else turns.push({ role, content });
  }
  return turns;
}

function toolChoice(ir: ChatIrRequest): Block | undefined {
  const choice = ir.toolChoice;
  if (!choice) return undefined;
  return choice.type === 'tool' ? { type: 'tool', name: choice.name } : { type: choice.type };
}

function checkExpressible(ir: ChatIrRequest): void {
  if (ir.temperature !== null && ir.temperature > 1) throw unsupported(ir.family, 'temperature', 'this upstream takes a temperature between 0 and 1');
  if (ir.presencePenalty) throw unsupported(ir.family, 'presencePenalty', 'this upstream has no presence penalty');
  if (ir.frequencyPenalty) throw unsupported(ir.family, 'frequencyPenalty', 'this upstream has no frequency penalty');
  if (ir.safetySettings !== null) throw unsupported(ir.family, 'safetySettings', 'this upstream takes no safety settings');
  if (ir.responseModalities?.includes('image')) throw unsupported(ir.family, 'responseModalities', 'this model cannot output images');
}

export function toAnthropicBody(ir: ChatIrRequest): Record<string, unknown> {
  checkExpressible(ir);
  const body: Record<string, unknown> = { model: ir.model, max_tokens: ir.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, messages: turnsOf(ir) };
  if ((body.messages as Turn[]).length === 0)
    throw GatewayError.invalid('the request holds no content to send', ir.family === 'genc' ? 'contents' : 'messages');
  if (ir.system.length > 0) body.system = ir.system.map((part) => ({ type: 'text', text: part.text }));
  if (ir.tools.length > 0) {
    body.tools = ir.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== null ? { description: tool.description } : {}),
      input_schema: { type: 'object', ...tool.parameters },
    }));
  }
  const choice = toolChoice(ir);
  if (choice) body.tool_choice = choice;
  if (ir.temperature !== null) body.temperature = ir.temperature;
  if (ir.topP !== null) body.top_p = ir.topP;
  if (ir.topK !== null) body.top_k = ir.topK;
  if (ir.stop.length > 0) body.stop_sequences = ir.stop;
  if (ir.user !== null) body.metadata = { user_id: ir.user };
  if (ir.stream) body.stream = true;
  return body;
}

/** The HTTP call around a Messages body, translated or passed through as the client sent it. */
export function anthropicCall(body: Record<string, unknown>, channel: ChannelTarget, stream: boolean): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION };
  if (channel.apiKey) headers['x-api-key'] = channel.apiKey;
  if (stream) headers.accept = 'text/event-stream';
  return {
    method: 'POST',
    url: `${channel.baseUrl.replace(/\/+$/, '')}/messages`,
    headers,
    body: JSON.stringify({ ...body, model: channel.upstreamModel }),
    stream,
  };
}

export function toAnthropicRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest {
  return anthropicCall(toAnthropicBody(ir), channel, ir.stream);
}
