// Pure builders for the Responses API: the input's last user text echoed as one output message (or, when
// function tools are offered and the last item is the user's, a call of the first one), and the typed event
// sequence of a streamed response.
import { usePromptCache } from '../../core/prompt-cache';
import { thinkAbout } from '../../core/reasoning';
import { structuredAnswer, toolArgumentsFor, type AnswerFormat } from '../../core/structured-answer';
import { countTokens, truncateTokens } from '../../core/tokenizer';
import type { ResponseRequest } from './openai.schemas';

export interface ResponsePlan {
  pieces: string[];
  text: string;
  incomplete: boolean;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number; cached_tokens: number; reasoning_tokens: number };
  /** A function call answered instead of text. */
  call: { name: string; arguments: string } | null;
  /** The reasoning summary, when reasoning was asked for with a summary. */
  summary: string | null;
}

function chosenFunction(request: ResponseRequest): { name: string; parameters?: Record<string, unknown> | null } | null {
  if (request.tool_choice === 'none') return null;
  const choice = request.tool_choice as { type?: unknown; name?: unknown } | string | undefined;
  const named = choice && typeof choice === 'object' && choice.type === 'function' ? choice.name : undefined;
  const tool = (request.tools ?? []).find((t) => t.type === 'function' && typeof t.name === 'string' && (named === undefined || t.name === named));
  return tool ? { name: tool.name!, parameters: tool.parameters } : null;
}

function answerFormatOf(request: ResponseRequest): AnswerFormat | null {
  const format = request.text?.format;
  if (!format || format.type === 'text') return null;
  return format.type === 'json_object' ? { kind: 'json_object' } : { kind: 'json_schema', schema: format.schema };
}

interface InputItem {
  role?: string;
  type?: string;
  content?: unknown;
  call_id?: unknown;
  name?: unknown;
  output?: unknown;
}

/** The answer to a function call's output: what the tool returned, quoted. */
function toolOutputAnswer(items: InputItem[], last: InputItem): string {
  const call = items.find((item) => item.type === 'function_call' && item.call_id === last.call_id);
  const output = typeof last.output === 'string' ? last.output : JSON.stringify(last.output ?? '');
  return `The ${typeof call?.name === 'string' ? call.name : 'tool'} tool returned: ${output}`;
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
  const items: InputItem[] = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  const lastUser = [...items].reverse().find((item) => item.role === 'user');
  const userText = lastUser ? itemText(lastUser.content) : '';
  const inputTokens = items.reduce((sum, item) => sum + 3 + countTokens(itemText(item.content)), countTokens(request.instructions ?? ''));
  const effort = request.reasoning?.effort;
  const thought = effort && effort !== 'none' ? thinkAbout(userText) : null;
  const summary = thought && request.reasoning?.summary ? thought.text : null;
  const reasoning = thought?.tokens ?? 0;
  const cached = request.prompt_cache_key
    ? usePromptCache(`openai:${request.prompt_cache_key}:${request.instructions ?? ''}`, countTokens(request.instructions ?? '')).read
    : 0;
  const usage = (output: number) => ({
    input_tokens: inputTokens,
    output_tokens: output + reasoning,
    total_tokens: inputTokens + output + reasoning,
    cached_tokens: cached,
    reasoning_tokens: reasoning,
  });
  const last = items.at(-1);
  const fn = last?.role === 'user' ? chosenFunction(request) : null;
  if (fn) {
    const args = JSON.stringify(toolArgumentsFor(fn.parameters, userText));
    return { pieces: [], text: '', incomplete: false, call: { name: fn.name, arguments: args }, usage: usage(countTokens(args)), summary };
  }
  const said = last?.type === 'function_call_output' ? toolOutputAnswer(items, last) : null;
  const format = answerFormatOf(request);
  const full = format ? structuredAnswer(format, said ?? userText) : (said ?? `You said: ${userText}`);
  const { text, tokens, truncated } = truncateTokens(full, request.max_output_tokens ?? undefined);
  return { pieces: tokens, text, incomplete: truncated, call: null, usage: usage(tokens.length), summary };
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

function reasoningItem(meta: ResponseMeta, summary: string): Record<string, unknown> {
  return { id: meta.messageId.replace(/^msg_/, 'rs_'), type: 'reasoning', summary: [{ type: 'summary_text', text: summary }] };
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
    output: !done
      ? []
      : [
          ...(plan.summary !== null ? [reasoningItem(meta, plan.summary)] : []),
          plan.call ? callItem(plan, meta, plan.call.arguments, 'completed') : outputMessage(plan, meta, plan.text, 'completed'),
        ],
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
      ? {
          usage: {
            input_tokens: plan.usage.input_tokens,
            output_tokens: plan.usage.output_tokens,
            total_tokens: plan.usage.total_tokens,
            input_tokens_details: { cached_tokens: plan.usage.cached_tokens, cache_write_tokens: 0 },
            output_tokens_details: { reasoning_tokens: plan.usage.reasoning_tokens },
          },
        }
      : {}),
  };
}

/** `event: <type>` + data pairs of a streamed response, in order; a reasoning summary comes first, as its own item. */
export function responseEvents(plan: ResponsePlan, meta: ResponseMeta, request: ResponseRequest): { event: string; data: Record<string, unknown> }[] {
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: sequence++, ...fields } });
  const part = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });
  const at = plan.summary !== null ? 1 : 0;
  const where = { item_id: meta.messageId, output_index: at, content_index: 0 };
  const final = responseBody(plan, meta, request);
  const events = [
    event('response.created', { response: responseBody(plan, meta, request, false) }),
    event('response.in_progress', { response: responseBody(plan, meta, request, false) }),
  ];
  if (plan.summary !== null) {
    const item = reasoningItem(meta, plan.summary);
    events.push(
      event('response.output_item.added', { output_index: 0, item: { ...item, summary: [] } }),
      event('response.reasoning_summary_text.delta', { item_id: item.id, output_index: 0, summary_index: 0, delta: plan.summary }),
      event('response.reasoning_summary_text.done', { item_id: item.id, output_index: 0, summary_index: 0, text: plan.summary }),
      event('response.output_item.done', { output_index: 0, item }),
    );
  }
  if (plan.call) {
    const call = { item_id: callItem(plan, meta, '', 'in_progress')['id'], output_index: at };
    return [
      ...events,
      event('response.output_item.added', { output_index: at, item: callItem(plan, meta, '', 'in_progress') }),
      event('response.function_call_arguments.delta', { ...call, delta: plan.call.arguments }),
      event('response.function_call_arguments.done', { ...call, name: plan.call.name, arguments: plan.call.arguments }),
      event('response.output_item.done', { output_index: at, item: callItem(plan, meta, plan.call.arguments, 'completed') }),
      event('response.completed', { response: final }),
    ];
  }
  return [
    ...events,
    event('response.output_item.added', { output_index: at, item: { ...outputMessage(plan, meta, '', 'in_progress'), content: [] } }),
    event('response.content_part.added', { ...where, part: part('') }),
    ...plan.pieces.map((piece) => event('response.output_text.delta', { ...where, delta: piece, logprobs: [] })),
    event('response.output_text.done', { ...where, text: plan.text, logprobs: [] }),
    event('response.content_part.done', { ...where, part: part(plan.text) }),
    event('response.output_item.done', { output_index: at, item: outputMessage(plan, meta, plan.text, 'completed') }),
    event(plan.incomplete ? 'response.incomplete' : 'response.completed', { response: final }),
  ];
}
