// IR → a Bedrock Converse (or ConverseStream) call. System parts go to `system`, tool results become
// toolResult blocks in a user turn, consecutive turns of one role are merged, a cache breakpoint is a
// cachePoint block after what it closes, and Claude's thinking goes in `additionalModelRequestFields`.
import { GatewayError } from '@gateway/contracts';
import type { ChatIrRequest, IrMessage } from '../../ir/chat-ir.schema';
import { unsupported } from '../../ir/field-names';
import { MIN_THINKING_BUDGET } from '../../ir/reasoning-budget';
import { parseToolArguments } from '../../ir/tool-arguments';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';

/** Structured output goes to Converse as one more tool the model is held to; its input is the answer. */
export const BEDROCK_STRUCTURED_OUTPUT_TOOL = 'structured_answer';
/** Converse takes at most this many stop sequences. */
export const BEDROCK_MAX_STOP_SEQUENCES = 4;
export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';

type Block = Record<string, unknown>;
interface Turn {
  role: 'user' | 'assistant';
  content: Block[];
}

const CACHE_POINT: Block = { cachePoint: { type: 'default' } };
const IMAGE_FORMATS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' };

function imageBlock(part: Extract<IrMessage['parts'][number], { type: 'image' }>): Block {
  if (part.data === null) throw GatewayError.invalid('this upstream takes images as inline bytes, not by URL', part.param);
  const format = IMAGE_FORMATS[part.mediaType ?? 'image/png'];
  if (!format) throw GatewayError.invalid(`this upstream takes png, jpeg, gif or webp images, not ${part.mediaType}`, part.param);
  return { image: { format, source: { bytes: part.data } } };
}

function blocksOf(message: IrMessage, family: ChatIrRequest['family']): Block[] {
  const blocks: Block[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
        // Converse refuses blank text blocks.
        if (part.text !== '') blocks.push({ text: part.text });
        if (part.cache && blocks.length > 0) blocks.push(CACHE_POINT);
        break;
      case 'reasoning':
        // Only reasoning Bedrock signed can go back to it; reasoning from elsewhere stays behind.
        if (part.redacted !== null) blocks.push({ reasoningContent: { redactedContent: part.redacted } });
        else if (part.signature) blocks.push({ reasoningContent: { reasoningText: { text: part.text, signature: part.signature } } });
        break;
      case 'image':
        blocks.push(imageBlock(part));
        break;
      case 'tool_call':
        blocks.push({
          toolUse: { toolUseId: part.id, name: part.name, input: parseToolArguments(part.arguments, family === 'genc' ? 'contents' : 'messages') },
        });
        break;
      case 'tool_result':
        blocks.push({ toolResult: { toolUseId: part.toolCallId, content: [{ text: part.content }], status: part.isError ? 'error' : 'success' } });
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
    if (last?.role === role) last.content.push(...content);
    else turns.push({ role, content });
  }
  return turns;
}

/**
 * Structured output is answered through a tool, which every Converse model can call; a model that thinks
 * cannot be forced to a tool, so it gets Converse's own `outputConfig` instead, whose answer is the JSON text.
 */
function answersByTool(ir: ChatIrRequest): boolean {
  return ir.responseFormat != null && !ir.reasoning;
}

export function bedrockStructuredOutputTool(ir: ChatIrRequest): string | null {
  return answersByTool(ir) ? BEDROCK_STRUCTURED_OUTPUT_TOOL : null;
}

function outputConfig(ir: ChatIrRequest): Block | undefined {
  const format = ir.responseFormat;
  if (!format || answersByTool(ir)) return undefined;
  const schema = format.type === 'json_schema' ? format.schema : { type: 'object' };
  const named = format.type === 'json_schema' ? { name: format.name, ...(format.description !== null ? { description: format.description } : {}) } : {};
  return { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(schema), ...named } } } };
}

function toolChoice(ir: ChatIrRequest, hasClientTools: boolean): Block | undefined {
  if (answersByTool(ir) && ir.toolChoice?.type !== 'tool') {
    return !hasClientTools || ir.toolChoice?.type === 'none' ? { tool: { name: BEDROCK_STRUCTURED_OUTPUT_TOOL } } : { any: {} };
  }
  const choice = ir.toolChoice;
  if (!choice || choice.type === 'none') return undefined;
  if (choice.type === 'tool') return { tool: { name: choice.name } };
  return choice.type === 'any' ? { any: {} } : { auto: {} };
}

function usesTools(turns: Turn[]): boolean {
  return turns.some((turn) => turn.content.some((block) => 'toolUse' in block || 'toolResult' in block));
}

/** Converse wants a toolConfig whenever the conversation holds tool blocks; `none` otherwise leaves the tools out. */
function toolConfig(ir: ChatIrRequest, turns: Turn[]): Block | undefined {
  const offered = ir.toolChoice?.type === 'none' && !usesTools(turns) && !answersByTool(ir) ? [] : ir.tools;
  const tools: Block[] = [];
  for (const tool of offered) {
    tools.push({
      toolSpec: {
        name: tool.name,
        ...(tool.description !== null ? { description: tool.description } : {}),
        inputSchema: { json: { type: 'object', ...tool.parameters } },
      },
    });
    if (tool.cache) tools.push(CACHE_POINT);
  }
  const format = ir.responseFormat;
  if (format && answersByTool(ir)) {
    const schema = format.type === 'json_schema' ? format.schema : { type: 'object' };
    const description = format.type === 'json_schema' && format.description !== null ? format.description : 'Give the answer as this tool input.';
    tools.push({ toolSpec: { name: BEDROCK_STRUCTURED_OUTPUT_TOOL, description, inputSchema: { json: { type: 'object', ...schema } } } });
  }
  if (tools.length === 0) return undefined;
  const choice = toolChoice(ir, offered.length > 0);
  return choice ? { tools, toolChoice: choice } : { tools };
}

function checkExpressible(ir: ChatIrRequest): void {
  if (ir.temperature !== null && ir.temperature > 1) throw unsupported(ir.family, 'temperature', 'this upstream takes a temperature between 0 and 1');
  if (ir.presencePenalty) throw unsupported(ir.family, 'presencePenalty', 'this upstream has no presence penalty');
  if (ir.frequencyPenalty) throw unsupported(ir.family, 'frequencyPenalty', 'this upstream has no frequency penalty');
  if (ir.safetySettings !== null) throw unsupported(ir.family, 'safetySettings', 'this upstream takes no safety settings');
  if (ir.responseModalities?.includes('image')) throw unsupported(ir.family, 'responseModalities', 'this model cannot output images');
  if (ir.stop.length > BEDROCK_MAX_STOP_SEQUENCES)
    throw unsupported(ir.family, 'stop', `this upstream takes at most ${BEDROCK_MAX_STOP_SEQUENCES} stop sequences`);
  if (ir.parallelToolCalls === false && ir.tools.length > 0) throw unsupported(ir.family, 'parallelToolCalls', 'this upstream cannot be held to one tool call');
}

function additionalFields(ir: ChatIrRequest): Block | undefined {
  const fields: Block = {};
  if (ir.reasoning) {
    const ceiling = ir.maxTokens !== null ? ir.maxTokens - 1 : ir.reasoning.budgetTokens;
    const budget = Math.min(ir.reasoning.budgetTokens, ceiling);
    if (budget < MIN_THINKING_BUDGET)
      throw unsupported(ir.family, 'reasoning', `this upstream thinks with at least ${MIN_THINKING_BUDGET} tokens, so the output limit must exceed that`);
    fields.thinking = { type: 'enabled', budget_tokens: budget };
  }
  if (ir.topK !== null) fields.top_k = ir.topK;
  return Object.keys(fields).length > 0 ? fields : undefined;
}

export function toConverseBody(ir: ChatIrRequest): Record<string, unknown> {
  checkExpressible(ir);
  const messages = turnsOf(ir);
  if (messages.length === 0) throw GatewayError.invalid('the request holds no content to send', ir.family === 'genc' ? 'contents' : 'messages');
  const body: Record<string, unknown> = { messages };
  const system: Block[] = [];
  for (const part of ir.system) {
    if (part.text !== '') system.push({ text: part.text });
    if (part.cache && system.length > 0) system.push(CACHE_POINT);
  }
  if (system.length > 0) body.system = system;
  const inference: Block = {};
  if (ir.maxTokens !== null) inference.maxTokens = ir.maxTokens;
  if (ir.temperature !== null) inference.temperature = ir.temperature;
  if (ir.topP !== null) inference.topP = ir.topP;
  if (ir.stop.length > 0) inference.stopSequences = ir.stop;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  const tools = toolConfig(ir, messages);
  if (tools) body.toolConfig = tools;
  const fields = additionalFields(ir);
  if (fields) body.additionalModelRequestFields = fields;
  const output = outputConfig(ir);
  if (output) body.outputConfig = output;
  return body;
}

/** Where a model's Converse calls go: the model id (an inference profile or ARN too) is one encoded path segment. */
export function converseUrl(channel: ChannelTarget, stream: boolean): string {
  return `${channel.baseUrl.replace(/\/+$/, '')}/model/${encodeURIComponent(channel.upstreamModel)}/${stream ? 'converse-stream' : 'converse'}`;
}

/** The unsigned call: the cloud-auth step signs it (signBedrockRequest) just before it is sent. */
export function toBedrockRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest {
  return {
    method: 'POST',
    url: converseUrl(channel, ir.stream),
    headers: { 'content-type': 'application/json', accept: ir.stream ? EVENT_STREAM_CONTENT_TYPE : 'application/json' },
    body: JSON.stringify(toConverseBody(ir)),
    stream: ir.stream,
  };
}
