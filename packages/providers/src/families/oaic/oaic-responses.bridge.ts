// oaic responses served through chat, the answer half: the chat answer (whole or streamed) as a response
// object or the typed response events. Used for models whose upstreams have no responses endpoint of their
// own; the request half is oaic-responses-request.bridge.ts.
import { createParser } from 'eventsource-parser';
import { randomBytes } from 'node:crypto';
import type {
  GatewayResponseStreamEvent,
  ResponseCreateRequest,
  ResponseFunctionCallOutput,
  ResponseItemStatus,
  ResponseMessageOutput,
  ResponseReasoningOutput,
  ResponseResource,
  ResponseUsage,
} from '@gateway/contracts';
import { parseUpstreamBody } from '../../ir/upstream-error';
import { sseEvent } from '../sse-frame';
import { ChatAnswer, ChatAnswerChunk, type ChatAnswerUsage, type ChatToolCall } from './oaic-chat-answer.schema';

export { responseAsChatRequest } from './oaic-responses-request.bridge';

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

/** The model's shown reasoning, answered as a reasoning item whose summary is that text. */
interface ReasoningState {
  id: string;
  text: string;
  outputIndex: number;
}

interface ResponseState {
  reasoning: ReasoningState | null;
  /** null: the answer has no message item (tool calls only). */
  text: string | null;
  messageId: string;
  messageIndex: number;
  toolCalls: ToolCallState[];
  finishReason: string | null;
  usage: ChatAnswerUsage | null;
}

/** One chunk of the chat stream; a line that is not a chunk (or not JSON) is skipped, as before it was read. */
function readChunk(data: string): ChatAnswerChunk | null {
  try {
    const parsed = ChatAnswerChunk.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The event of type `T`, without the two fields `emit` writes (a key remap keeps the named fields beside the loose ones). */
type EventFields<T extends GatewayResponseStreamEvent['type']> = {
  [K in keyof EventOf<T> as K extends 'type' | 'sequence_number' ? never : K]: EventOf<T>[K];
};
type EventOf<T> = GatewayResponseStreamEvent extends infer E ? (E extends { type: infer U } ? (T extends U ? E : never) : never) : never;

const nullableText = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const itemId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function messageItem(state: ResponseState, status: ResponseItemStatus): ResponseMessageOutput {
  return {
    id: state.messageId,
    type: 'message',
    status,
    role: 'assistant',
    content: [{ type: 'output_text', text: state.text ?? '', annotations: [], logprobs: [] }],
  };
}

function reasoningItem(reasoning: ReasoningState): ResponseReasoningOutput {
  return { id: reasoning.id, type: 'reasoning', summary: [{ type: 'summary_text', text: reasoning.text }] };
}

function callItem(call: ToolCallState, status: ResponseItemStatus): ResponseFunctionCallOutput {
  return { id: call.id, type: 'function_call', status, call_id: call.callId, name: call.name, arguments: call.arguments };
}

function responseUsage(usage: ChatAnswerUsage): ResponseUsage {
  const input = usage.prompt_tokens ?? 0;
  const output = usage.completion_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  };
}

function responseObject(origin: ResponseOrigin, state: ResponseState, done: boolean): ResponseResource {
  const incomplete = done && state.finishReason === 'length';
  const items: Array<[index: number, item: ResponseResource['output'][number]]> = [];
  if (done && state.reasoning) items.push([state.reasoning.outputIndex, reasoningItem(state.reasoning)]);
  if (done && state.text !== null) items.push([state.messageIndex, messageItem(state, incomplete ? 'incomplete' : 'completed')]);
  if (done) for (const call of state.toolCalls) items.push([call.outputIndex, callItem(call, 'completed')]);
  const output = items.sort((a, b) => a[0] - b[0]).map(([, item]) => item);
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
    parallel_tool_calls: origin.request.parallel_tool_calls ?? true,
    temperature: origin.request.temperature ?? null,
    tool_choice: origin.request.tool_choice ?? 'auto',
    tools: origin.request.tools ?? [],
    top_p: origin.request.top_p ?? null,
    metadata: origin.request.metadata ?? {},
    // OpenAI's schema has no null usage: a response still in progress carries none.
    ...(done && state.usage ? { usage: responseUsage(state.usage) } : {}),
  };
}

/** A chat.completion as the response object a responses client expects. */
export function chatAnswerAsResponse(chat: Record<string, unknown>, origin: ResponseOrigin): ResponseResource {
  const answer = parseUpstreamBody(() => ChatAnswer.parse(chat));
  const choice = answer.choices?.[0];
  const toolCalls = choice?.message?.tool_calls ?? [];
  const text = choice?.message?.content ?? '';
  const thought = choice?.message?.reasoning_content;
  const first = thought ? 1 : 0;
  const hasMessage = text !== '' || toolCalls.length === 0;
  const state: ResponseState = {
    reasoning: thought ? { id: itemId('rs'), text: thought, outputIndex: 0 } : null,
    text: hasMessage ? text : null,
    messageId: itemId('msg'),
    messageIndex: first,
    toolCalls: toolCalls.map((call, i) => ({
      id: itemId('fc'),
      callId: call.id ?? itemId('call'),
      name: call.function?.name ?? '',
      arguments: call.function?.arguments ?? '',
      outputIndex: first + i + (hasMessage ? 1 : 0),
    })),
    finishReason: choice?.finish_reason ?? null,
    usage: answer.usage ?? null,
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
  private readonly state: ResponseState = {
    reasoning: null,
    text: null,
    messageId: itemId('msg'),
    messageIndex: -1,
    toolCalls: [],
    finishReason: null,
    usage: null,
  };
  private reasoningOpen = false;
  /** Each tool call by its index in the chat stream. */
  private readonly calls = new Map<number, ToolCallState>();
  private outputs = 0;
  final: ResponseResource | null = null;

  constructor(private readonly origin: ResponseOrigin) {}

  push(text: string): string {
    this.parser.feed(text);
    const out = this.written;
    this.written = '';
    return out;
  }

  /** The event's SSE name is its type; its sequence number comes second, as OpenAI writes it. */
  private emit<T extends GatewayResponseStreamEvent['type']>(type: T, fields: EventFields<T>): string {
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
    const chunk = readChunk(data);
    if (!chunk) return '';
    if (chunk.error) {
      const { message, code, param } = chunk.error;
      return this.emit('error', {
        message: typeof message === 'string' ? message : 'The upstream failed.',
        code: nullableText(code),
        param: nullableText(param),
      });
    }
    let out = this.start();
    if (chunk.usage) this.state.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const thought = choice.delta?.reasoning_content;
      if (thought) out += this.thought(thought);
      const content = choice.delta?.content;
      if (content) out += this.text(content);
      for (const call of choice.delta?.tool_calls ?? []) out += this.toolCall(call);
      if (choice.finish_reason) this.state.finishReason = choice.finish_reason;
    }
    return out;
  }

  private thought(piece: string): string {
    let out = '';
    if (!this.state.reasoning) {
      this.state.reasoning = { id: itemId('rs'), text: '', outputIndex: this.outputs++ };
      this.reasoningOpen = true;
      out += this.emit('response.output_item.added', {
        output_index: this.state.reasoning.outputIndex,
        item: { ...reasoningItem(this.state.reasoning), summary: [] },
      });
    }
    if (!this.reasoningOpen) return out;
    const reasoning = this.state.reasoning;
    reasoning.text += piece;
    return (
      out + this.emit('response.reasoning_summary_text.delta', { item_id: reasoning.id, output_index: reasoning.outputIndex, summary_index: 0, delta: piece })
    );
  }

  /** Reasoning ends where the answer begins. */
  private closeReasoning(): string {
    if (!this.reasoningOpen || !this.state.reasoning) return '';
    this.reasoningOpen = false;
    const reasoning = this.state.reasoning;
    const where = { item_id: reasoning.id, output_index: reasoning.outputIndex, summary_index: 0 };
    return (
      this.emit('response.reasoning_summary_text.done', { ...where, text: reasoning.text }) +
      this.emit('response.output_item.done', { output_index: reasoning.outputIndex, item: reasoningItem(reasoning) })
    );
  }

  private openText(): string {
    if (this.textOpen) return '';
    this.textOpen = true;
    this.state.text = '';
    this.state.messageIndex = this.outputs++;
    return (
      this.emit('response.output_item.added', { output_index: this.state.messageIndex, item: { ...messageItem(this.state, 'in_progress'), content: [] } }) +
      this.emit('response.content_part.added', {
        item_id: this.state.messageId,
        output_index: this.state.messageIndex,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
      })
    );
  }

  private text(piece: string): string {
    const out = this.closeReasoning() + this.openText();
    this.state.text += piece;
    return (
      out +
      this.emit('response.output_text.delta', {
        item_id: this.state.messageId,
        output_index: this.state.messageIndex,
        content_index: 0,
        delta: piece,
        logprobs: [],
      })
    );
  }

  private toolCall(delta: ChatToolCall): string {
    const index = delta.index ?? 0;
    const fn = delta.function ?? {};
    let out = this.closeReasoning();
    let call = this.calls.get(index);
    if (!call) {
      call = { id: itemId('fc'), callId: delta.id ?? itemId('call'), name: fn.name ?? '', arguments: '', outputIndex: this.outputs++ };
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
    let out = this.start() + this.closeReasoning();
    // An answer with neither text nor tool calls is still one (empty) message.
    if (this.state.toolCalls.length === 0) out += this.openText();
    if (this.textOpen) {
      const where = { item_id: this.state.messageId, output_index: this.state.messageIndex, content_index: 0 };
      const text = this.state.text ?? '';
      out += this.emit('response.output_text.done', { ...where, text, logprobs: [] });
      out += this.emit('response.content_part.done', { ...where, part: { type: 'output_text', text, annotations: [], logprobs: [] } });
      out += this.emit('response.output_item.done', { output_index: this.state.messageIndex, item: messageItem(this.state, 'completed') });
    }
    for (const call of this.state.toolCalls) {
      out += this.emit('response.function_call_arguments.done', {
        item_id: call.id,
        output_index: call.outputIndex,
        name: call.name,
        arguments: call.arguments,
      });
      out += this.emit('response.output_item.done', { output_index: call.outputIndex, item: callItem(call, 'completed') });
    }
    this.final = responseObject(this.origin, this.state, true);
    return out + this.emit(this.final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: this.final });
  }
}
