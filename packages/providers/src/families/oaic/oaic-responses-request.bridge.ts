// oaic responses served through chat, the request half: a responses request as the chat request that
// answers it (input items as messages, function tools, tool choice, text format, reasoning effort).
import {
  GatewayError,
  isReadResponseInputItem,
  isResponseFunctionTool,
  parseOrThrow,
  type ChatCompletionRequest,
  type ChatMessage,
  type ContentBlock,
  type ResponseCreateRequest,
  type ResponseInputPart,
  type ResponseTool,
} from '@gateway/contracts';
import { z } from 'zod';

type Json = Record<string, unknown>;

function refuse(what: string, param: string, model: string): never {
  throw GatewayError.invalid(`${what} needs an upstream with a responses endpoint, and the model '${model}' has none.`, param);
}

function chatPart(part: ResponseInputPart, param: string, model: string): ContentBlock {
  if ((part.type === 'input_text' || part.type === 'output_text' || part.type === 'text') && typeof part.text === 'string')
    return { type: 'text', text: part.text };
  if (part.type === 'input_image' && typeof part.image_url === 'string')
    return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) } };
  return refuse(`An input part of type '${part.type}'`, param, model);
}

function chatContent(content: string | ResponseInputPart[], param: string, model: string): string | ContentBlock[] {
  if (typeof content === 'string') return content;
  return content.map((part, j) => chatPart(part, `${param}[${j}]`, model));
}

/** Input items as chat messages: messages by role, function calls and their outputs as tool calls and tool messages. */
function chatMessages(body: ResponseCreateRequest): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (body.instructions) messages.push({ role: 'system', content: body.instructions });
  if (typeof body.input === 'string') return [...messages, { role: 'user', content: body.input }];
  body.input.forEach((item, i) => {
    const param = `input[${i}]`;
    if (!isReadResponseInputItem(item)) return refuse(`An input item of type '${String(item.type)}'`, param, body.model);
    if (item.type === 'function_call') {
      const call = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } };
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) });
    } else {
      const role = item.role === 'developer' ? 'system' : item.role;
      messages.push({ role, content: chatContent(item.content, `${param}.content`, body.model) });
    }
  });
  return messages;
}

function chatTools(tools: ResponseTool[] | undefined, model: string): ChatCompletionRequest['tools'] {
  if (!tools) return undefined;
  return tools.map((tool, i) => {
    if (!isResponseFunctionTool(tool)) return refuse(`A tool of type '${String(tool.type)}'`, `tools[${i}]`, model);
    return {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters ?? { type: 'object', properties: {} },
        ...(tool.strict != null ? { strict: tool.strict } : {}),
      },
    };
  });
}

function chatToolChoice(choice: NonNullable<ResponseCreateRequest['tool_choice']>): ChatCompletionRequest['tool_choice'] {
  if (typeof choice === 'object' && choice.type === 'function') return { type: 'function', function: { name: choice.name } };
  return choice;
}

const TextFormatIn = z.discriminatedUnion('type', [
  z.looseObject({ type: z.enum(['text', 'json_object']) }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    description: z.string().optional(),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullish(),
  }),
]);
const ReasoningIn = z.looseObject({ effort: z.string().nullish(), summary: z.string().nullish() });

/** responses' `text.format` as chat's `response_format`: the same formats, the schema's fields one level up. */
function chatResponseFormat(body: ResponseCreateRequest): Json | undefined {
  if (!body.text?.format) return undefined;
  const format = parseOrThrow(TextFormatIn, body.text.format, 'text.format');
  if (format.type !== 'json_schema') return format.type === 'text' ? undefined : { type: 'json_object' };
  const spec: Json = { name: format.name, schema: format.schema };
  if (format.description !== undefined) spec.description = format.description;
  if (format.strict != null) spec.strict = format.strict;
  return { type: 'json_schema', json_schema: spec };
}

/** The chat request that answers a responses request. */
export function responseAsChatRequest(body: ResponseCreateRequest): ChatCompletionRequest {
  if (body.previous_response_id) refuse("'previous_response_id'", 'previous_response_id', body.model);
  const chat: ChatCompletionRequest = { model: body.model, messages: chatMessages(body), stream: body.stream === true };
  const format = chatResponseFormat(body);
  if (format) chat.response_format = format;
  const reasoning = body.reasoning === undefined ? null : parseOrThrow(ReasoningIn, body.reasoning, 'reasoning');
  if (reasoning?.effort) chat.reasoning_effort = reasoning.effort;
  if (body.max_output_tokens) chat.max_tokens = body.max_output_tokens;
  const tools = chatTools(body.tools, body.model);
  if (tools) chat.tools = tools;
  if (body.tool_choice !== undefined) chat.tool_choice = chatToolChoice(body.tool_choice);
  const carried = { temperature: body.temperature, top_p: body.top_p, user: body.user, parallel_tool_calls: body.parallel_tool_calls };
  for (const [field, value] of Object.entries(carried)) if (value !== undefined) chat[field] = value;
  if (chat.stream) chat.stream_options = { include_usage: true };
  return chat;
}
