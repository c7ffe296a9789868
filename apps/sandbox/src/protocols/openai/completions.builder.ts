// Pure builders for legacy text completions: the prompt echoed back, truncated to max_tokens.
import { countTokens, truncateTokens } from '../../core/tokenizer';
import type { ChatMeta, ChatUsage } from './chat.builder';
import type { CompletionRequest } from './openai.schemas';

export interface CompletionPlan {
  pieces: string[];
  text: string;
  finishReason: 'stop' | 'length';
  usage: ChatUsage;
}

// The legacy endpoint defaults to 16 tokens when max_tokens is absent.
const DEFAULT_MAX_TOKENS = 16;

export function planCompletion(request: CompletionRequest): CompletionPlan {
  const prompt = Array.isArray(request.prompt) ? request.prompt.join('\n') : request.prompt;
  const { text, tokens, truncated } = truncateTokens(`You said: ${prompt}`, request.max_tokens ?? DEFAULT_MAX_TOKENS);
  const promptTokens = countTokens(prompt);
  return {
    pieces: tokens,
    text,
    finishReason: truncated ? 'length' : 'stop',
    usage: { prompt_tokens: promptTokens, completion_tokens: tokens.length, total_tokens: promptTokens + tokens.length },
  };
}

function choice(text: string, finishReason: string | null): Record<string, unknown> {
  return { text, index: 0, logprobs: null, finish_reason: finishReason };
}

export function completionBody(plan: CompletionPlan, meta: ChatMeta): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'text_completion',
    created: meta.created,
    model: meta.model,
    choices: [choice(plan.text, plan.finishReason)],
    usage: plan.usage,
  };
}

export function completionChunks(plan: CompletionPlan, meta: ChatMeta, includeUsage: boolean): Record<string, unknown>[] {
  const base = { id: meta.id, object: 'text_completion', created: meta.created, model: meta.model };
  const chunks: Record<string, unknown>[] = plan.pieces.map((piece) => ({ ...base, choices: [choice(piece, null)], ...(includeUsage ? { usage: null } : {}) }));
  chunks.push({ ...base, choices: [choice('', plan.finishReason)], ...(includeUsage ? { usage: null } : {}) });
  if (includeUsage) chunks.push({ ...base, choices: [], usage: plan.usage });
  return chunks;
}
