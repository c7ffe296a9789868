// oaic completions served through chat: a completions request as a one-message chat request, and the
// chat answer (whole or streamed) as text_completion objects. Used for models whose upstreams have no
// completions endpoint of their own.
import { GatewayError, type ChatCompletionRequest, type ChatFinishReason, type CompletionRequest, type TextCompletionResponse } from '@gateway/contracts';
import { createParser } from 'eventsource-parser';
import { SSE_DONE, sseData } from '../sse-frame';

/** Completions fields chat has no counterpart for: a request that sets one needs a completions upstream. */
const COMPLETIONS_ONLY: ReadonlyArray<[field: string, isSet: (value: unknown) => boolean]> = [
  ['suffix', (v) => v !== undefined && v !== null && v !== ''],
  ['echo', (v) => v === true],
  ['logprobs', (v) => v !== undefined && v !== null],
  ['best_of', (v) => typeof v === 'number' && v > 1],
  ['n', (v) => typeof v === 'number' && v > 1],
];

const CARRIED = ['max_tokens', 'temperature', 'top_p', 'stop', 'presence_penalty', 'frequency_penalty', 'user', 'seed', 'stream_options'] as const;

/** The chat request that answers a completions request: its prompt as one user message. */
export function completionAsChatRequest(body: CompletionRequest): ChatCompletionRequest {
  const prompts = typeof body.prompt === 'string' ? [body.prompt] : body.prompt;
  if (prompts.length > 1) {
    throw GatewayError.invalid(
      `The model '${body.model}' answers one prompt per request here (its upstreams have no completions endpoint); send the prompts one by one.`,
      'prompt',
    );
  }
  const fields = body as Record<string, unknown>;
  for (const [field, isSet] of COMPLETIONS_ONLY) {
    if (isSet(fields[field]))
      throw GatewayError.invalid(`'${field}' needs an upstream with a completions endpoint, and the model '${body.model}' has none.`, field);
  }
  const chat: Record<string, unknown> = { model: body.model, messages: [{ role: 'user', content: prompts[0]! }], stream: body.stream === true };
  for (const field of CARRIED) if (fields[field] !== undefined) chat[field] = fields[field];
  return chat as ChatCompletionRequest;
}

interface ChatChoice {
  index?: number;
  message?: { content?: unknown };
  delta?: { content?: unknown };
  finish_reason?: unknown;
}

/** What a completion takes from the chat answer or chunk it rewrites (already checked where it entered). */
interface ChatHead {
  id?: unknown;
  created?: unknown;
  model?: unknown;
  usage?: unknown;
}

/** A completion id in the completions style (`cmpl-`), from the chat answer's. */
function completionId(id: unknown): string {
  if (typeof id !== 'string') return `cmpl-${Date.now().toString(36)}`;
  return id.startsWith('chatcmpl-') ? `cmpl-${id.slice('chatcmpl-'.length)}` : id.startsWith('cmpl-') ? id : `cmpl-${id}`;
}

function asCompletion(chat: ChatHead, choices: ChatChoice[], part: 'message' | 'delta'): TextCompletionResponse {
  const completion: TextCompletionResponse = {
    id: completionId(chat.id),
    object: 'text_completion',
    created: typeof chat.created === 'number' ? chat.created : Math.floor(Date.now() / 1000),
    model: typeof chat.model === 'string' ? chat.model : '',
    choices: choices.map((choice, i) => ({
      text: typeof choice[part]?.content === 'string' ? choice[part]!.content : '',
      index: choice.index ?? i,
      logprobs: null,
      finish_reason: (choice.finish_reason ?? null) as ChatFinishReason | null,
    })),
  };
  if (chat.usage) completion.usage = chat.usage as TextCompletionResponse['usage'];
  return completion;
}

/** A chat.completion as the text_completion a completions client expects. */
export function chatAnswerAsCompletion(chat: Record<string, unknown>): TextCompletionResponse {
  return asCompletion(chat, Array.isArray(chat.choices) ? (chat.choices as ChatChoice[]) : [], 'message');
}

/**
 * Rewrites a chat.completion.chunk SSE stream, as text arrives in pieces, into text_completion chunks.
 * Chunks that carry nothing a completions client reads (the opening role chunk) are dropped; usage, the
 * end of each choice and `[DONE]` go through.
 */
export class ChatStreamAsCompletions {
  private written = '';
  private readonly parser = createParser({ onEvent: (message) => (this.written += this.event(message.data)) });

  push(text: string): string {
    this.parser.feed(text);
    const out = this.written;
    this.written = '';
    return out;
  }

  private event(data: string): string {
    if (data === '') return '';
    if (data === '[DONE]') return SSE_DONE;
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return '';
    }
    // An error event in the middle of a stream reaches the client as it came.
    if (chunk.error) return sseData(chunk);
    const choices = Array.isArray(chunk.choices) ? (chunk.choices as ChatChoice[]) : [];
    const carries = choices.some((c) => (typeof c.delta?.content === 'string' && c.delta.content !== '') || c.finish_reason) || Boolean(chunk.usage);
    return carries ? sseData(asCompletion(chunk, choices, 'delta')) : '';
  }
}
