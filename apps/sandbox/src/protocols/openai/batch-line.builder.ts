// Pure answers to one line of a batch: the same builders the live routes use, so a batch line's body and
// usage are exactly what the live call would have returned. A body the route would refuse is a 400 line.
import { randomUUID } from 'node:crypto';
import { chatCompletionBody, planChat } from './chat.builder';
import { completionBody, planCompletion } from './completions.builder';
import { embeddingsBody, moderationBody } from './embeddings.builder';
import { renderOpenaiError } from './openai.errors';
import { ChatRequest, CompletionRequest, EmbeddingRequest, ModerationRequest, ResponseRequest } from './openai.schemas';
import { planResponse, responseBody } from './responses.builder';

export const BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/completions', '/v1/responses', '/v1/embeddings', '/v1/moderations'] as const;
export type BatchEndpoint = (typeof BATCH_ENDPOINTS)[number];

export interface BatchLineAnswer {
  status: number;
  body: Record<string, unknown>;
  /** Tokens the line used, for the sandbox's stats. */
  tokens: { prompt: number; completion: number };
}

const shortId = (): string => randomUUID().replace(/-/g, '').slice(0, 24);
const now = (): number => Math.floor(Date.now() / 1000);

function refused(message: string, param: string | null): BatchLineAnswer {
  return { status: 400, body: renderOpenaiError(400, message, param, 'invalid_value') as Record<string, unknown>, tokens: { prompt: 0, completion: 0 } };
}

export function answerBatchLine(endpoint: BatchEndpoint, raw: unknown): BatchLineAnswer {
  const schema = {
    '/v1/chat/completions': ChatRequest,
    '/v1/completions': CompletionRequest,
    '/v1/responses': ResponseRequest,
    '/v1/embeddings': EmbeddingRequest,
    '/v1/moderations': ModerationRequest,
  }[endpoint];
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return refused(`Invalid body: ${issue.path.join('.') || 'body'}: ${issue.message}`, issue.path.join('.') || null);
  }
  switch (endpoint) {
    case '/v1/chat/completions': {
      const request = parsed.data as ChatRequest;
      const plan = planChat(request);
      const body = chatCompletionBody(plan, { id: `chatcmpl-${shortId()}`, created: now(), model: request.model });
      return { status: 200, body, tokens: { prompt: plan.usage.prompt_tokens, completion: plan.usage.completion_tokens } };
    }
    case '/v1/completions': {
      const request = parsed.data as CompletionRequest;
      const plan = planCompletion(request);
      const body = completionBody(plan, { id: `cmpl-${shortId()}`, created: now(), model: request.model });
      return { status: 200, body, tokens: { prompt: plan.usage.prompt_tokens, completion: plan.usage.completion_tokens } };
    }
    case '/v1/responses': {
      const request = parsed.data as ResponseRequest;
      const plan = planResponse(request);
      const body = responseBody(plan, { id: `resp_${shortId()}`, messageId: `msg_${shortId()}`, createdAt: now(), model: request.model }, request);
      return { status: 200, body, tokens: { prompt: plan.usage.input_tokens, completion: plan.usage.output_tokens } };
    }
    case '/v1/embeddings': {
      const request = parsed.data as EmbeddingRequest;
      const body = embeddingsBody(request, request.model);
      return { status: 200, body, tokens: { prompt: (body.usage as { prompt_tokens: number }).prompt_tokens, completion: 0 } };
    }
    case '/v1/moderations': {
      const request = parsed.data as ModerationRequest;
      return { status: 200, body: moderationBody(request, `modr-${shortId()}`), tokens: { prompt: 0, completion: 0 } };
    }
  }
}
