// Pure builders for chat completions: a deterministic plan derived from the request (an echo of the last
// user text, a tool call when tools are offered, or an answer quoting a tool result), rendered either as one
// chat.completion body or as the chat.completion.chunk sequence of a stream.
import { usePromptCache } from '../../core/prompt-cache';
import { thinkAbout } from '../../core/reasoning';
import { structuredAnswer, toolArgumentsFor, type AnswerFormat } from '../../core/structured-answer';
import { countTokens, hash32, truncateTokens } from '../../core/tokenizer';
import type { ChatMessage, ChatRequest, FunctionTool, ResponseFormat } from './openai.schemas';

/** The details appear when asked about: reasoning tokens with a reasoning effort, cached tokens with a cache key. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export type ChatPlan =
  | { kind: 'text'; pieces: string[]; text: string; finishReason: 'stop' | 'length'; usage: ChatUsage }
  | { kind: 'tool'; call: { id: string; name: string; arguments: string }; argumentPieces: string[]; usage: ChatUsage };

export interface ChatMeta {
  id: string;
  created: number;
  model: string;
}

export function messageText(content: ChatMessage['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join(' ');
}

/** The text of the request's last user message ('' when there is none). */
export function lastUserText(body: ChatRequest): string {
  const lastUser = [...body.messages].reverse().find((message) => message.role === 'user');
  return lastUser ? messageText(lastUser.content) : '';
}

function countNonText(content: ChatMessage['content']): number {
  return Array.isArray(content) ? content.filter((part) => part.type !== 'text').length : 0;
}

export function promptTokensOf(messages: ChatMessage[]): number {
  // A few tokens of framing per message, as real chat templates add.
  return messages.reduce((sum, message) => sum + 3 + countTokens(messageText(message.content)) + countNonText(message.content) * 85, 0);
}

function usageOf(prompt: number, completion: number): ChatUsage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** Reasoning spends output tokens before the answer; a cache key lets the leading system messages be read from cache. */
function withExtras(usage: ChatUsage, request: ChatRequest, reasoningTokens: number): ChatUsage {
  const out = { ...usage };
  if (request.reasoning_effort && request.reasoning_effort !== 'none') {
    out.completion_tokens += reasoningTokens;
    out.total_tokens += reasoningTokens;
    out.completion_tokens_details = { reasoning_tokens: reasoningTokens };
  }
  if (request.prompt_cache_key) {
    const leading = request.messages.filter((message, i) => i < request.messages.length - 1 && (message.role === 'system' || message.role === 'developer'));
    const prefix = leading.map((message) => messageText(message.content)).join('\n');
    out.prompt_tokens_details = { cached_tokens: usePromptCache(`openai:${request.prompt_cache_key}:${prefix}`, promptTokensOf(leading)).read };
  }
  return out;
}

export function answerFormatOf(format: ResponseFormat | null | undefined): AnswerFormat | null {
  if (!format || format.type === 'text') return null;
  if (format.type === 'json_object') return { kind: 'json_object' };
  return { kind: 'json_schema', schema: format.json_schema.schema ?? {} };
}

function chooseTool(request: ChatRequest): FunctionTool | null {
  const tools = request.tools ?? [];
  if (tools.length === 0 || request.tool_choice === 'none') return null;
  const choice = request.tool_choice;
  if (choice && typeof choice === 'object') return tools.find((tool) => tool.function.name === choice.function.name) ?? null;
  return tools[0]!;
}

/** Splits a string into `parts` roughly equal pieces (at least one). */
export function splitInto(text: string, parts: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length > 0 ? pieces : [''];
}

function toolResultAnswer(messages: ChatMessage[], last: ChatMessage): string {
  const call = messages.flatMap((message) => message.tool_calls ?? []).find((toolCall) => toolCall.id === last.tool_call_id);
  const name = call?.function.name ?? last.name ?? 'tool';
  return `The ${name} tool returned: ${messageText(last.content)}`;
}

export function planChat(request: ChatRequest): ChatPlan {
  const messages = request.messages;
  const last = messages[messages.length - 1]!;
  const promptTokens = promptTokensOf(messages);
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const userText = lastUser ? messageText(lastUser.content) : '';
  const reasoningTokens = thinkAbout(userText).tokens;
  const tool = last.role === 'tool' ? null : chooseTool(request);
  if (tool) {
    const args = JSON.stringify(toolArgumentsFor(tool.function.parameters, userText));
    const call = { id: `call_${hash32(`${tool.function.name}:${args}`).toString(36)}`, name: tool.function.name, arguments: args };
    const usage = withExtras(usageOf(promptTokens, countTokens(`${call.name} ${args}`)), request, reasoningTokens);
    return { kind: 'tool', call, argumentPieces: splitInto(args, 3), usage };
  }
  const format = answerFormatOf(request.response_format);
  const images = lastUser ? countNonText(lastUser.content) : 0;
  const full = format
    ? structuredAnswer(format, last.role === 'tool' ? toolResultAnswer(messages, last) : userText)
    : last.role === 'tool'
      ? toolResultAnswer(messages, last)
      : `You said: ${userText}${images > 0 ? ` (with ${images} attachment${images > 1 ? 's' : ''})` : ''}`;
  const limit = request.max_completion_tokens ?? request.max_tokens ?? undefined;
  const { text, tokens, truncated } = truncateTokens(full, limit);
  const usage = withExtras(usageOf(promptTokens, tokens.length), request, reasoningTokens);
  return { kind: 'text', pieces: tokens, text, finishReason: truncated ? 'length' : 'stop', usage };
}

export function chatCompletionBody(plan: ChatPlan, meta: ChatMeta): Record<string, unknown> {
  const message =
    plan.kind === 'text'
      ? { role: 'assistant', content: plan.text, refusal: null }
      : {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [{ id: plan.call.id, type: 'function', function: { name: plan.call.name, arguments: plan.call.arguments } }],
        };
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.kind === 'text' ? plan.finishReason : 'tool_calls' }],
    usage: plan.usage,
    system_fingerprint: 'fp_sandbox',
  };
}

/** The chunk objects of a streamed answer, in order (without the `[DONE]` sentinel). */
export function chatChunks(plan: ChatPlan, meta: ChatMeta, includeUsage: boolean): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null): Record<string, unknown> => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'fp_sandbox',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: Record<string, unknown>[] = [];
  if (plan.kind === 'text') {
    chunks.push(chunk({ role: 'assistant', content: '', refusal: null }, null));
    for (const piece of plan.pieces) chunks.push(chunk({ content: piece }, null));
    chunks.push(chunk({}, plan.finishReason));
  } else {
    chunks.push(
      chunk(
        { role: 'assistant', content: null, tool_calls: [{ index: 0, id: plan.call.id, type: 'function', function: { name: plan.call.name, arguments: '' } }] },
        null,
      ),
    );
    for (const piece of plan.argumentPieces) chunks.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null));
    chunks.push(chunk({}, 'tool_calls'));
  }
  if (includeUsage) {
    chunks.push({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      system_fingerprint: 'fp_sandbox',
      choices: [],
      usage: plan.usage,
    });
  }
  return chunks;
}
