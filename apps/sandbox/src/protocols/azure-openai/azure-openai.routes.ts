// Azure OpenAI's API paths: `/openai/deployments/{deployment}/…?api-version=` (the deployment names the
// model) and `/openai/v1/…` (the model in the body); responses sit beside the deployments, at
// `/openai/responses?api-version=`. Answers come from the OpenAI builders, annotated
// with Azure's content-filter results; a prompt marker trips the filter.
import { randomUUID } from 'node:crypto';
import { parseOrThrow } from '@gateway/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dataFrame, eventFrame } from '../../core/exchange';
import { buildPng } from '../../core/media.builder';
import type { ProtocolDeps } from '../../core/protocol';
import { chatChunks, chatCompletionBody, lastUserText, planChat } from '../openai/chat.builder';
import { embeddingsBody } from '../openai/embeddings.builder';
import { ChatRequest, EmbeddingRequest, ImageRequest, ResponseRequest } from '../openai/openai.schemas';
import { planResponse, responseBody, responseEvents } from '../openai/responses.builder';
import {
  annotateChunks,
  annotateCompletion,
  completionFilterResults,
  FILTER_COMPLETION_MARKER,
  FILTER_PROMPT_MARKER,
  promptFilterResults,
  refusedPromptResult,
} from './azure-content-filter';
import { AZURE_NOT_FOUND, contentFilterError, renderAzureError } from './azure-openai.errors';

const API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

type Params = { deployment?: string };
type Query = { 'api-version'?: string };

/** Renames one field of an answer: the `x-sandbox-drift` control, for specs that prove a client notices drift. */
function drifted(body: Record<string, unknown>, request: FastifyRequest): Record<string, unknown> {
  const field = request.headers['x-sandbox-drift'];
  if (typeof field !== 'string' || !(field in body)) return body;
  const { [field]: value, ...rest } = body;
  return { ...rest, [`${field}_drifted`]: value };
}

/** The model a call is for: the deployment on the deployment paths (which require an api-version), the body's on v1. */
function modelFor(request: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply, bodyModel: unknown): string | null {
  const { deployment } = request.params;
  const versioned = deployment !== undefined || !request.url.includes('/openai/v1/');
  if (!versioned) return typeof bodyModel === 'string' ? bodyModel : null;
  const version = request.query['api-version'];
  if (!version) {
    void reply.code(404).send(AZURE_NOT_FOUND);
    return null;
  }
  if (!API_VERSION.test(version)) {
    void reply.code(400).send(renderAzureError(400, 'API version not supported', 'api-version', 'BadRequest'));
    return null;
  }
  return deployment ?? (typeof bodyModel === 'string' ? bodyModel : null);
}

export function registerAzureOpenaiRoutes(app: FastifyInstance, { exchange, holds }: ProtocolDeps): void {
  const chat = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const model = modelFor(request, reply, raw.model);
    if (model === null) return reply.sent ? reply : reply.code(400).send(renderAzureError(400, "Missing required parameter: 'model'.", 'model', null));
    const body = parseOrThrow(ChatRequest, { ...raw, model });
    const controls = await exchange.gate(request, reply, model, renderAzureError, { stream: body.stream === true });
    if (!controls) return reply;
    const prompt = lastUserText(body);
    if (prompt.includes(FILTER_PROMPT_MARKER)) return reply.code(400).send(contentFilterError(refusedPromptResult()));
    await holds.admit(prompt, exchange.signal(request));
    const filtered = prompt.includes(FILTER_COMPLETION_MARKER);
    const plan = planChat(body);
    exchange.stats.addTokens(plan.usage.prompt_tokens, plan.usage.completion_tokens);
    const meta = { id: `chatcmpl-${randomUUID().replace(/-/g, '').slice(0, 24)}`, created: Math.floor(Date.now() / 1000), model };
    if (body.stream !== true) return drifted(annotateCompletion(chatCompletionBody(plan, meta), filtered), request);
    const chunks = annotateChunks(chatChunks(plan, meta, body.stream_options?.include_usage === true), filtered);
    await exchange.sendSse(request, reply, [...chunks.map((chunk) => dataFrame(drifted(chunk, request))), dataFrame('[DONE]')], controls);
    return reply;
  };

  const embeddings = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const model = modelFor(request, reply, raw.model);
    if (model === null) return reply.sent ? reply : reply.code(400).send(renderAzureError(400, "Missing required parameter: 'model'.", 'model', null));
    const body = parseOrThrow(EmbeddingRequest, { ...raw, model });
    if (!(await exchange.gate(request, reply, model, renderAzureError, { stream: false }))) return reply;
    const result = embeddingsBody(body, model);
    exchange.stats.addTokens((result.usage as { prompt_tokens: number }).prompt_tokens, 0);
    return drifted(result, request);
  };

  const images = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const model = modelFor(request, reply, raw.model);
    if (model === null) return reply.sent ? reply : reply.code(400).send(renderAzureError(400, "Missing required parameter: 'model'.", 'model', null));
    const body = parseOrThrow(ImageRequest, { ...raw, model });
    if (body.prompt.includes(FILTER_PROMPT_MARKER)) return reply.code(400).send(contentFilterError(refusedPromptResult()));
    if (!(await exchange.gate(request, reply, model, renderAzureError, { stream: false }))) return reply;
    const data = Array.from({ length: body.n ?? 1 }, (_, index) => ({
      b64_json: buildPng(`${body.prompt}#${index}`).toString('base64'),
      revised_prompt: body.prompt,
      content_filter_results: completionFilterResults(false),
      prompt_filter_results: promptFilterResults()[0],
    }));
    return { created: Math.floor(Date.now() / 1000), data };
  };

  const responses = async (request: FastifyRequest<{ Params: Params; Querystring: Query }>, reply: FastifyReply) => {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const model = modelFor(request, reply, raw.model);
    if (model === null) return reply.sent ? reply : reply.code(400).send(renderAzureError(400, "Missing required parameter: 'model'.", 'model', null));
    const body = parseOrThrow(ResponseRequest, { ...raw, model });
    const controls = await exchange.gate(request, reply, model, renderAzureError, { stream: body.stream === true });
    if (!controls) return reply;
    const plan = planResponse(body);
    exchange.stats.addTokens(plan.usage.input_tokens, plan.usage.output_tokens);
    const id = randomUUID().replace(/-/g, '').slice(0, 24);
    const meta = { id: `resp_${id}`, messageId: `msg_${id}`, createdAt: Math.floor(Date.now() / 1000), model };
    if (body.stream !== true) return drifted(responseBody(plan, meta, body), request);
    await exchange.sendSse(
      request,
      reply,
      responseEvents(plan, meta, body).map(({ event, data }) => eventFrame(event, data)),
      controls,
    );
    return reply;
  };

  app.post('/openai/deployments/:deployment/chat/completions', chat);
  app.post('/openai/v1/chat/completions', chat);
  app.post('/openai/deployments/:deployment/embeddings', embeddings);
  app.post('/openai/v1/embeddings', embeddings);
  app.post('/openai/deployments/:deployment/images/generations', images);
  app.post('/openai/v1/images/generations', images);
  app.post('/openai/responses', responses);
  app.post('/openai/v1/responses', responses);
}
