// IR → an Anthropic Messages call. System parts go to the top-level `system`; tool results become
// tool_result blocks in a user turn; consecutive turns of one role are merged, as the protocol alternates.
import { GatewayError } from '@gateway/contracts';
import type { ChatIrRequest, IrMessage } from '../../ir/chat-ir.schema';
import { unsupported } from '../../ir/field-names';
import { MIN_THINKING_BUDGET } from '../../ir/reasoning-budget';
import { estimateTextTokens } from '../../ir/token-estimator';
import { parseToolArguments } from '../../ir/tool-arguments';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';

export const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires max_tokens; families that leave it out get this. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;
/**
 * Structured output goes to Anthropic as one more tool the model is held to: its input is the answer,
 * returned to the client as text. The name is one a client tool is unlikely to have.
 */
export const STRUCTURED_OUTPUT_TOOL = 'structured_answer';

const EPHEMERAL = { type: 'ephemeral' };
/**
 * OpenAI and Gemini cache long prompt prefixes on their own; Anthropic only where a breakpoint says so. A
 * request from those families that marks none gets one after a system prompt this long (Anthropic's
 * smallest cacheable prefix), so its repeated prefix is read from cache as it would be at home.
 */
export const IMPLICIT_CACHE_MIN_TOKENS = 1024;

function implicitCacheBreakpoint(ir: ChatIrRequest): boolean {
  if (ir.family === 'msgc' || ir.system.length === 0) return false;
  if (ir.system.some((part) => part.cache) || ir.tools.some((tool) => tool.cache)) return false;
  if (ir.messages.some((message) => message.parts.some((part) => part.type === 'text' && part.cache))) return false;
  return estimateTextTokens(ir.system.map((part) => part.text).join('\n')) >= IMPLICIT_CACHE_MIN_TOKENS;
}

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
        if (part.text !== '') blocks.push(part.cache ? { type: 'text', text: part.text, cache_control: EPHEMERAL } : { type: 'text', text: part.text });
        break;
      case 'reasoning':
        // Only thinking this protocol signed can go back to it; reasoning from elsewhere stays behind.
        if (part.redacted !== null) blocks.push({ type: 'redacted_thinking', data: part.redacted });
        else if (part.signature) blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
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
  const serial = ir.parallelToolCalls === false && ir.tools.length > 0 ? { disable_parallel_tool_use: true } : {};
  if (answersByTool(ir) && choice?.type !== 'tool') {
    // Held to answer: the answer tool alone, or (with tools the model may still call) any tool.
    if (ir.tools.length === 0 || choice?.type === 'none') return { type: 'tool', name: STRUCTURED_OUTPUT_TOOL };
    return { type: 'any', ...serial };
  }
  if (!choice) return Object.keys(serial).length > 0 ? { type: 'auto', ...serial } : undefined;
  if (choice.type === 'none') return { type: 'none' };
  return choice.type === 'tool' ? { type: 'tool', name: choice.name, ...serial } : { type: choice.type, ...serial };
}

function structuredOutputTool(ir: ChatIrRequest): Block {
  const format = ir.responseFormat!;
  const schema = format.type === 'json_schema' ? format.schema : { type: 'object' };
  const description = format.type === 'json_schema' && format.description !== null ? format.description : 'Give the answer as this tool input.';
  return { name: STRUCTURED_OUTPUT_TOOL, description, input_schema: { type: 'object', ...schema } };
}

/** Thinking needs room for the answer: its budget stays below max_tokens, and at least the protocol's minimum. */
function thinking(ir: ChatIrRequest, maxTokens: number): Block | undefined {
  if (!ir.reasoning) return undefined;
  const budget = Math.min(ir.reasoning.budgetTokens, maxTokens - 1);
  if (budget < MIN_THINKING_BUDGET)
    throw unsupported(ir.family, 'reasoning', `this upstream thinks with at least ${MIN_THINKING_BUDGET} tokens, so the output limit must exceed that`);
  return { type: 'enabled', budget_tokens: budget };
}

/** The tool the answer comes back in when the request asked for structured output, for the response decoder. */
export function anthropicStructuredOutputTool(ir: ChatIrRequest): string | null {
  return answersByTool(ir) ? STRUCTURED_OUTPUT_TOOL : null;
}

/**
 * Anthropic refuses a forced tool call while the model thinks: structured output with reasoning goes as
 * the protocol's own `output_format` instead, whose answer is the JSON text itself.
 */
function answersByTool(ir: ChatIrRequest): boolean {
  return ir.responseFormat != null && !ir.reasoning;
}

function outputFormat(ir: ChatIrRequest): Block | undefined {
  const format = ir.responseFormat;
  if (!format || answersByTool(ir)) return undefined;
  return { type: 'json_schema', schema: format.type === 'json_schema' ? format.schema : { type: 'object' } };
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
  const maxTokens = ir.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS;
  const body: Record<string, unknown> = { model: ir.model, max_tokens: maxTokens, messages: turnsOf(ir) };
  if ((body.messages as Turn[]).length === 0)
    throw GatewayError.invalid('the request holds no content to send', ir.family === 'genc' ? 'contents' : 'messages');
  if (ir.system.length > 0) {
    const implicit = implicitCacheBreakpoint(ir);
    body.system = ir.system.map((part, i) =>
      part.cache || (implicit && i === ir.system.length - 1) ? { type: 'text', text: part.text, cache_control: EPHEMERAL } : { type: 'text', text: part.text },
    );
  }
  const tools: Block[] = ir.tools.map((tool) => ({
    name: tool.name,
    ...(tool.description !== null ? { description: tool.description } : {}),
    input_schema: { type: 'object', ...tool.parameters },
    ...(tool.cache ? { cache_control: EPHEMERAL } : {}),
  }));
  if (answersByTool(ir)) tools.push(structuredOutputTool(ir));
  const format = outputFormat(ir);
  if (format) body.output_format = format;
  if (tools.length > 0) body.tools = tools;
  const reasoning = thinking(ir, maxTokens);
  if (reasoning) body.thinking = reasoning;
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

/** The beta that turns on Anthropic's `output_format`. */
export const STRUCTURED_OUTPUTS_BETA = 'structured-outputs-2025-11-13';

export function toAnthropicRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest {
  const body = toAnthropicBody(ir);
  const call = anthropicCall(body, channel, ir.stream);
  if (body.output_format) call.headers['anthropic-beta'] = STRUCTURED_OUTPUTS_BETA;
  return call;
}
