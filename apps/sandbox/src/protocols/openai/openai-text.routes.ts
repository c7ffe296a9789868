// Text routes of the OpenAI protocol: models, chat completions, completions and responses (+ retrieve).
import { randomUUID } from 'node:crypto';
import { parseOrThrow } from '@gateway/contracts';
import type { FastifyInstance } from 'fastify';
import { dataFrame, eventFrame } from '../../core/exchange';
import type { ProtocolDeps } from '../../core/protocol';
import { chatChunks, chatCompletionBody, lastUserText, planChat } from './chat.builder';
import { completionBody, completionChunks, planCompletion } from './completions.builder';
import { ChatRequest, CompletionRequest, ResponseRequest } from './openai.schemas';
import { renderOpenaiError } from './openai.errors';
import { planResponse, responseBody, responseEvents } from './responses.builder';

export const SANDBOX_MODELS = ['sandbox-gpt', 'sandbox-embedding', 'sandbox-moderation', 'sandbox-image', 'sandbox-tts', 'sandbox-whisper'];
const MODELS_CREATED = 1_735_689_600; // 2025-01-01, fixed so listings are stable
const STORED_RESPONSES = 1000;

function modelOf(body: unknown): string | undefined {
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : undefined;
}

const now = (): number => Math.floor(Date.now() / 1000);
const shortId = (): string => randomUUID().replace(/-/g, '').slice(0, 24);

export function registerOpenaiTextRoutes(app: FastifyInstance, { exchange, holds }: ProtocolDeps): void {
  const responses = new Map<string, Record<string, unknown>>();
  const store = (id: string, body: Record<string, unknown>): void => {
    responses.set(id, body);
    if (responses.size > STORED_RESPONSES) responses.delete(responses.keys().next().value!);
  };

  app.get('/models', async () => ({
    object: 'list',
    data: SANDBOX_MODELS.map((id) => ({ id, object: 'model', created: MODELS_CREATED, owned_by: 'sandbox' })),
  }));

  app.post('/chat/completions', async (request, reply) => {
    const body = parseOrThrow(ChatRequest, request.body);
    const controls = await exchange.gate(request, reply, modelOf(body), renderOpenaiError, { stream: body.stream === true });
    if (!controls) return reply;
    await holds.admit(lastUserText(body), exchange.signal(request));
    const plan = planChat(body);
    exchange.stats.addTokens(plan.usage.prompt_tokens, plan.usage.completion_tokens);
    const meta = { id: `chatcmpl-${shortId()}`, created: now(), model: body.model };
    if (body.stream !== true) return chatCompletionBody(plan, meta);
    const chunks = chatChunks(plan, meta, body.stream_options?.include_usage === true);
    await exchange.sendSse(request, reply, [...chunks.map(dataFrame), dataFrame('[DONE]')], controls);
    return reply;
  });

  app.post('/completions', async (request, reply) => {
    const body = parseOrThrow(CompletionRequest, request.body);
    const controls = await exchange.gate(request, reply, modelOf(body), renderOpenaiError, { stream: body.stream === true });
    if (!controls) return reply;
    const plan = planCompletion(body);
    exchange.stats.addTokens(plan.usage.prompt_tokens, plan.usage.completion_tokens);
    const meta = { id: `cmpl-${shortId()}`, created: now(), model: body.model };
    if (body.stream !== true) return completionBody(plan, meta);
    const chunks = completionChunks(plan, meta, body.stream_options?.include_usage === true);
    await exchange.sendSse(request, reply, [...chunks.map(dataFrame), dataFrame('[DONE]')], controls);
    return reply;
  });

  app.post('/responses', async (request, reply) => {
    const body = parseOrThrow(ResponseRequest, request.body);
    const previous = body.previous_response_id;
    // As the vendor does: a conversation continues only from a response this server gave.
    if (typeof previous === 'string' && !responses.has(previous)) {
      return reply.code(404).send(renderOpenaiError(404, `Previous response with id '${previous}' not found.`, 'previous_response_id', null));
    }
    const controls = await exchange.gate(request, reply, modelOf(body), renderOpenaiError, { stream: body.stream === true });
    if (!controls) return reply;
    const plan = planResponse(body);
    exchange.stats.addTokens(plan.usage.input_tokens, plan.usage.output_tokens);
    const meta = { id: `resp_${shortId()}`, messageId: `msg_${shortId()}`, createdAt: now(), model: body.model };
    const final = responseBody(plan, meta, body);
    store(meta.id, final);
    if (body.stream !== true) return final;
    const frames = responseEvents(plan, meta, body).map(({ event, data }) => eventFrame(event, data));
    await exchange.sendSse(request, reply, frames, controls);
    return reply;
  });

  app.get<{ Params: { id: string } }>('/responses/:id', async (request, reply) => {
    const found = responses.get(request.params.id);
    if (found) return found;
    return reply.code(404).send(renderOpenaiError(404, `Response with id '${request.params.id}' not found.`, 'response_id', null));
  });
}
