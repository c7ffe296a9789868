// oaic responses served through chat: a responses request as a chat request, and the chat answer (whole
// or streamed) as a response object or the typed response events. Used for models whose upstreams have no
// responses endpoint of their own.
import { GatewayError, type ChatCompletionRequest, type ResponseCreateRequest } from '@gateway/contracts';
import { createParser } from 'eventsource-parser';
import { randomBytes } from 'node:crypto';
import { sseEvent } from '../sse-frame';

type Json = Record<string, unknown>;

const CARRIED = ['temperature', 'top_p', 'user', 'parallel_tool_calls'] as const;

function refuse(what: string, param: string, model: string): never {
  throw GatewayError.invalid(`${what} needs an upstream with a responses endpoint, and the model '${model}' has none.`, param);
}

function chatPart(part: unknown, param: string, model: string): Json {
  const p = (part ?? {}) as Json;
  if ((p.type === 'input_text' || p.type === 'output_text' || p.type === 'text') && typeof p.text === 'string') return { type: 'text', text: p.text };
  if (p.type === 'input_image' && typeof p.image_url === 'string') return { type: 'image_url', image_url: { url: p.image_url, ...(p.detail ? { detail: p.detail } : {}) } };
  return refuse(`An input part of type '${String(p.type)}'`, param, model);
}

function chatContent(content: unknown, param: string, model: string): string | Json[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw GatewayError.invalid('expected a string or an array of content parts', param);
  return content.map((part, j) => chatPart(part, `${param}[${j}]`, model));
}

/** Input items as chat messages: messages by role, function calls and their outputs as tool calls and tool messages. */
function chatMessages(body: ResponseCreateRequest): Json[] {
  const messages: Json[] = [];
  if (body.instructions) messages.push({ role: 'system', content: body.instructions });
  if (typeof body.input === 'string') return [...messages, { role: 'user', content: body.input }];
  body.input.forEach((raw, i) => {
    const item = raw as Json;
    const param = `input[${i}]`;
    if (item.type === 'function_call') {
      const call = { id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments ?? '' } };
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) (last.tool_calls as Json[]).push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item.type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) });
    } else if ((item.type === undefined || item.type === 'message') && typeof item.role === 'string') {
      const role = item.role === 'developer' ? 'system' : item.role;
      messages.push({ role, content: chatContent(item.content, `${param}.content`, body.model) });
    } else {
      refuse(`An input item of type '${String(item.type)}'`, param, body.model);
    }
  });
  return messages;
}

function chatTools(body: Json, model: string): Json[] | undefined {
  if (!Array.isArray(body.tools)) return undefined;
  return (body.tools as Json[]).map((tool, i) => {
    if (tool.type !== 'function') refuse(`A tool of type '${String(tool.type)}'`, `tools[${i}]`, model);
    return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters ?? { type: 'object', properties: {} }, ...(tool.strict !== undefined ? { strict: tool.strict } : {}) } };
  });
}

function chatToolChoice(choice: unknown): unknown {
  if (choice && typeof choice === 'object' && (choice as Json).type === 'function') return { type: 'function', function: { name: (choice as Json).name } };
  return choice;
}

/** The chat request that answers a responses request. */
export function responseAsChatRequest(body: ResponseCreateRequest): ChatCompletionRequest {
  const fields = body as Json;
  if (fields.previous_response_id) refuse("'previous_response_id'", 'previous_response_id', body.model);
  const format = (fields.text as Json | undefined)?.format as Json | undefined;
  if (format && format.type !== 'text') refuse(`A text format of type '${String(format.type)}'`, 'text.format', body.model);
  const chat: Json = { model: body.model, messages: chatMessages(body), stream: body.stream === true };
  if (body.max_output_tokens) chat.max_tokens = body.max_output_tokens;
  const tools = chatTools(fields, body.model);
  if (tools) chat.tools = tools;
  if (fields.tool_choice !== undefined) chat.tool_choice = chatToolChoice(fields.tool_choice);
  for (const field of CARRIED) if (fields[field] !== undefined) chat[field] = fields[field];
  if (chat.stream) chat.stream_options = { include_usage: true };
  return chat as ChatCompletionRequest;
}

/** Where a response comes from: its gateway id and the request it answers. */
export interface ResponseOrigin {
  id: string;
  createdAt: number;
  model: string;
  request: ResponseCreateRequest;
}

interface ToolCallState {
  id: string;
  callId: string;
  name: string;
  arguments: string;
  outputIndex: number;
}

interface ResponseState {
  /** null: the answer has no message item (tool calls only). */
  text: string | null;
  messageId: string;
  messageIndex: number;
  toolCalls: ToolCallState[];
  finishReason: string | null;
  usage: Json | null;
}

const itemId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function messageItem(state: ResponseState, status: string): Json {
  return { id: state.messageId, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', text: state.text ?? '', annotations: [], logprobs: [] }] };
}

function callItem(call: ToolCallState, status: string): Json {
  return { id: call.id, type: 'function_call', status, call_id: call.callId, name: call.name, arguments: call.arguments };
}

function responseUsage(usage: Json): Json {
  const input = Number(usage.prompt_tokens ?? 0);
  const output = Number(usage.completion_tokens ?? 0);
  const cached = Number((usage.prompt_tokens_details as Json | null | undefined)?.cached_tokens ?? 0);
  const reasoning = Number((usage.completion_tokens_details as Json | null | undefined)?.reasoning_tokens ?? 0);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

function responseObject(origin: ResponseOrigin, state: ResponseState, done: boolean): Json {
  const incomplete = done && state.finishReason === 'length';
  const items: Array<[index: number, item: Json]> = [];
  if (done && state.text !== null) items.push([state.messageIndex, messageItem(state, incomplete ? 'incomplete' : 'completed')]);
  if (done) for (const call of state.toolCalls) items.push([call.outputIndex, callItem(call, 'completed')]);
  const output = items.sort((a, b) => a[0] - b[0]).map(([, item]) => item);
  const request = origin.request as Json;
  return {
    id: origin.id,
    object: 'response',
    created_at: origin.createdAt,
    status: !done ? 'in_progress' : incomplete ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: origin.request.instructions ?? null,
    max_output_tokens: origin.request.max_output_tokens ?? null,
    model: origin.model,
    output,
    output_text: done ? (state.text ?? '') : '',
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    temperature: origin.request.temperature ?? null,
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: origin.request.top_p ?? null,
    metadata: request.metadata ?? {},
    // OpenAI's schema has no null usage: a response still in progress carries none.
    ...(done && state.usage ? { usage: responseUsage(state.usage) } : {}),
  };
}

/** A chat.completion as the response object a responses client expects. */
export function chatAnswerAsResponse(chat: Json, origin: ResponseOrigin): Json {
  const choice = (Array.isArray(chat.choices) ? chat.choices[0] : undefined) as Json | undefined;
  const message = (choice?.message ?? {}) as Json;
  const toolCalls = Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : [];
  const text = typeof message.content === 'string' ? message.content : '';
  const hasMessage = text !== '' || toolCalls.length === 0;
  const state: ResponseState = {
    text: hasMessage ? text : null,
    messageId: itemId('msg'),
    messageIndex: 0,
    toolCalls: toolCalls.map((call, i) => {
      const fn = (call.function ?? {}) as Json;
      return { id: itemId('fc'), callId: String(call.id ?? itemId('call')), name: String(fn.name ?? ''), arguments: String(fn.arguments ?? ''), outputIndex: i + (hasMessage ? 1 : 0) };
    }),
    finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null,
    usage: (chat.usage as Json | undefined) ?? null,
  };
  return responseObject(origin, state, true);
}

/**
 * Rewrites a chat.completion.chunk SSE stream, as text arrives in pieces, into the typed events of a
 * streamed response: created and in_progress first, an output item per message or function call with
 * its deltas, the items' done events, then response.completed (or .incomplete) carrying the whole
 * response, which `final` also holds for storing.
 */
export class ChatStreamAsResponseEvents {
  private written = '';
  private readonly parser = createParser({ onEvent: (message) => (this.written += this.event(message.data)) });
  private sequence = 0;
  private started = false;
  private textOpen = false;
  private readonly state: ResponseState = { text: null, messageId: itemId('msg'), messageIndex: -1, toolCalls: [], finishReason: null, usage: null };
  /** Each tool call by its index in the chat stream. */
  private readonly calls = new Map<number, ToolCallState>();
  private outputs = 0;
  final: Json | null = null;

  constructor(private readonly origin: ResponseOrigin) {}

  push(text: string): string {
    this.parser.feed(text);
    const out = this.written;
    this.written = '';
    return out;
  }

  private emit(type: string, fields: Json): string {
    return sseEvent(type, { type, sequence_number: this.sequence++, ...fields });
  }

  private start(): string {
    if (this.started) return '';
    this.started = true;
    const response = responseObject(this.origin, this.state, false);
    return this.emit('response.created', { response }) + this.emit('response.in_progress', { response });
  }

  private event(data: string): string {
    if (data === '') return '';
    if (data === '[DONE]') return this.finish();
    let chunk: Json;
    try {
      chunk = JSON.parse(data) as Json;
    } catch {
      return '';
    }
    if (chunk.error) return this.emit('error', { ...(chunk.error as Json) });
    let out = this.start();
    if (chunk.usage) this.state.usage = chunk.usage as Json;
    for (const choice of (Array.isArray(chunk.choices) ? chunk.choices : []) as Json[]) {
      const delta = (choice.delta ?? {}) as Json;
      if (typeof delta.content === 'string' && delta.content !== '') out += this.text(delta.content);
      for (const call of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []) as Json[]) out += this.toolCall(call);
      if (typeof choice.finish_reason === 'string') this.state.finishReason = choice.finish_reason;
    }
    return out;
  }

  private openText(): string {
    if (this.textOpen) return '';
    this.textOpen = true;
    this.state.text = '';
    this.state.messageIndex = this.outputs++;
    return (
      this.emit('response.output_item.added', { output_index: this.state.messageIndex, item: { ...messageItem(this.state, 'in_progress'), content: [] } }) +
      this.emit('response.content_part.added', { item_id: this.state.messageId, output_index: this.state.messageIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } })
    );
  }

  private text(piece: string): string {
    const out = this.openText();
    this.state.text += piece;
    return out + this.emit('response.output_text.delta', { item_id: this.state.messageId, output_index: this.state.messageIndex, content_index: 0, delta: piece, logprobs: [] });
  }

  private toolCall(delta: Json): string {
    const index = typeof delta.index === 'number' ? delta.index : 0;
    const fn = (delta.function ?? {}) as Json;
    let out = '';
    let call = this.calls.get(index);
    if (!call) {
      call = { id: itemId('fc'), callId: String(delta.id ?? itemId('call')), name: String(fn.name ?? ''), arguments: '', outputIndex: this.outputs++ };
      this.calls.set(index, call);
      this.state.toolCalls.push(call);
      out += this.emit('response.output_item.added', { output_index: call.outputIndex, item: callItem(call, 'in_progress') });
    }
    if (typeof fn.arguments === 'string' && fn.arguments !== '') {
      call.arguments += fn.arguments;
      out += this.emit('response.function_call_arguments.delta', { item_id: call.id, output_index: call.outputIndex, delta: fn.arguments });
    }
    return out;
  }

  private finish(): string {
    if (this.final) return '';
    let out = this.start();
    // An answer with neither text nor tool calls is still one (empty) message.
    if (this.state.toolCalls.length === 0) out += this.openText();
    if (this.textOpen) {
      const where = { item_id: this.state.messageId, output_index: this.state.messageIndex, content_index: 0 };
      out += this.emit('response.output_text.done', { ...where, text: this.state.text, logprobs: [] });
      out += this.emit('response.content_part.done', { ...where, part: { type: 'output_text', text: this.state.text, annotations: [], logprobs: [] } });
      out += this.emit('response.output_item.done', { output_index: this.state.messageIndex, item: messageItem(this.state, 'completed') });
    }
    for (const call of this.state.toolCalls) {
      out += this.emit('response.function_call_arguments.done', { item_id: call.id, output_index: call.outputIndex, name: call.name, arguments: call.arguments });
      out += this.emit('response.output_item.done', { output_index: call.outputIndex, item: callItem(call, 'completed') });
    }
    this.final = responseObject(this.origin, this.state, true);
    return out + this.emit(this.final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: this.final });
  }
}
