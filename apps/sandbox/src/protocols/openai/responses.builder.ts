// Pure builders for the Responses API: the input's last user text echoed as one output message (or, when
// function tools are offered and the last item is the user's, a call of the first one), and the typed event
// sequence of a streamed response.
import { countTokens, truncateTokens } from '../../core/tokenizer';
import type { ResponseRequest } from './openai.schemas';

export interface ResponsePlan {
  pieces: string[];
  text: string;
  incomplete: boolean;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number };
  /** A function call answered instead of text. */
  call: { name: string; arguments: string } | null;
}

function chosenFunction(request: ResponseRequest): { name: string; parameters?: Record<string, unknown> | null } | null {
  if (request.tool_choice === 'none') return null;
  const tool = (request.tools ?? []).find((t) => t.type === 'function' && typeof t.name === 'string');
  return tool ? { name: tool.name!, parameters: tool.parameters } : null;
}

function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown }) => (typeof part?.text === 'string' && String(part.type).includes('text') ? part.text : ''))
    .filter(Boolean)
    .join(' ');
}

export function planResponse(request: ResponseRequest): ResponsePlan {
  const items = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  const lastUser = [...items].reverse().find((item) => item.role === 'user');
  const userText = lastUser ? itemText(lastUser.content) : '';
  const inputTokens = items.reduce((sum, item) => sum + 3 + countTokens(itemText(item.content)), countTokens(request.instructions ?? ''));
  const fn = items.at(-1)?.role === 'user' ? chosenFunction(request) : null;
  if (fn) {
    const properties = fn.parameters?.['properties'];
    const first = properties && typeof properties === 'object' ? Object.keys(properties)[0] : undefined;
    const args = JSON.stringify({ [first ?? 'input']: userText });
    const output = countTokens(args);
    return {
      pieces: [],
      text: '',
      incomplete: false,
      call: { name: fn.name, arguments: args },
      usage: { input_tokens: inputTokens, output_tokens: output, total_tokens: inputTokens + output },
    };
  }
  const { text, tokens, truncated } = truncateTokens(`You said: ${userText}`, request.max_output_tokens ?? undefined);
  return {
    pieces: tokens,
    text,
    incomplete: truncated,
    call: null,
    usage: { input_tokens: inputTokens, output_tokens: tokens.length, total_tokens: inputTokens + tokens.length },
  };
}

export interface ResponseMeta {
  id: string;
  messageId: string;
  createdAt: number;
  model: string;
}

function callItem(plan: ResponsePlan, meta: ResponseMeta, args: string, status: string): Record<string, unknown> {
  return {
    id: meta.messageId.replace(/^msg_/, 'fc_'),
    type: 'function_call',
    status,
    call_id: meta.messageId.replace(/^msg_/, 'call_'),
    name: plan.call?.name,
    arguments: args,
  };
}

function outputMessage(plan: ResponsePlan, meta: ResponseMeta, text: string, status: string): Record<string, unknown> {
  return { id: meta.messageId, type: 'message', status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] };
}

export function responseBody(plan: ResponsePlan, meta: ResponseMeta, request: ResponseRequest, done = true): Record<string, unknown> {
  const status = !done ? 'in_progress' : plan.incomplete ? 'incomplete' : 'completed';
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status,
    error: null,
    incomplete_details: plan.incomplete && done ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: meta.model,
    output: !done ? [] : plan.call ? [callItem(plan, meta, plan.call.arguments, 'completed')] : [outputMessage(plan, meta, plan.text, 'completed')],
    output_text: done ? plan.text : '',
    parallel_tool_calls: true,
    // As OpenAI answers: the sampling settings in effect, 1 when the request named none.
    temperature: request.temperature ?? 1,
    tool_choice: 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    metadata: request.metadata ?? {},
    // A response in progress has no usage yet, and OpenAI's schema has no null for it.
    ...(done
      ? { usage: { ...plan.usage, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } }
      : {}),
  };
}

/** `event: <type>` + data pairs of a streamed response, in order. */
export function responseEvents(plan: ResponsePlan, meta: ResponseMeta, request: ResponseRequest): { event: string; data: Record<string, unknown> }[] {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: sequence++, ...fields } });
  const part = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });
  const where = { item_id: meta.messageId, output_index: 0, content_index: 0 };
  const final = responseBody(plan, meta, request);
  if (plan.call) {
    const at = { item_id: callItem(plan, meta, '', 'in_progress')['id'], output_index: 0 };
    return [
      event('response.created', { response: responseBody(plan, meta, request, false) }),
      event('response.in_progress', { response: responseBody(plan, meta, request, false) }),
      event('response.output_item.added', { output_index: 0, item: callItem(plan, meta, '', 'in_progress') }),
      event('response.function_call_arguments.delta', { ...at, delta: plan.call.arguments }),
      event('response.function_call_arguments.done', { ...at, name: plan.call.name, arguments: plan.call.arguments }),
      event('response.output_item.done', { output_index: 0, item: callItem(plan, meta, plan.call.arguments, 'completed') }),
      event('response.completed', { response: final }),
    ];
  }
  return [
    event('response.created', { response: responseBody(plan, meta, request, false) }),
    event('response.in_progress', { response: responseBody(plan, meta, request, false) }),
    event('response.output_item.added', { output_index: 0, item: { ...outputMessage(plan, meta, '', 'in_progress'), content: [] } }),
    event('response.content_part.added', { ...where, part: part('') }),
    ...plan.pieces.map((piece) => event('response.output_text.delta', { ...where, delta: piece, logprobs: [] })),
    event('response.output_text.done', { ...where, text: plan.text, logprobs: [] }),
    event('response.content_part.done', { ...where, part: part(plan.text) }),
    event('response.output_item.done', { output_index: 0, item: outputMessage(plan, meta, plan.text, 'completed') }),
    event(plan.incomplete ? 'response.incomplete' : 'response.completed', { response: final }),
  ];
}
