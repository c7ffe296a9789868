// The Anthropic Messages protocol under /anthropic/v1: `x-api-key` auth (any non-empty key, recorded in the
// stats), Anthropic's error dialect, messages (whole and streamed), count_tokens and models.
import { CountTokensRequest, GatewayError, MessagesRequest, parseOrThrow } from '@gateway/contracts';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { eventFrame } from '../../core/exchange';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { renderAnthropicError } from './anthropic.errors';
import { inputTokensOf, messageBody, messageEvents, planMessage } from './messages.builder';

export const ANTHROPIC_MODELS = ['sandbox-claude'];
const MODELS_CREATED = '2025-01-01T00:00:00Z';

const render = (status: number, message: string): unknown => renderAnthropicError(status, message);

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange }) => {
  app.addHook('onRequest', async (request, reply) => exchange.track(request, reply));

  app.addHook('onRequest', async (request, reply) => {
    const raw = request.headers['x-api-key'];
    const key = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
    if (!key) return reply.code(401).send(render(401, 'x-api-key header is required'));
    exchange.stats.recordKey(key);
  });

  app.setErrorHandler((error: FastifyError | GatewayError, _request, reply) => {
    if (error instanceof GatewayError) return reply.code(400).send(render(400, `${error.param ?? 'body'}: ${error.message}`));
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    return reply.code(status).send(render(status, status === 500 ? 'Internal server error' : error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(render(404, `Not found: ${request.method} ${request.url}`));
  });

  app.get('/models', async () => ({
    data: ANTHROPIC_MODELS.map((id) => ({ type: 'model', id, display_name: id, created_at: MODELS_CREATED })),
    has_more: false,
    first_id: ANTHROPIC_MODELS[0],
    last_id: ANTHROPIC_MODELS[ANTHROPIC_MODELS.length - 1],
  }));

  app.post('/messages/count_tokens', async (request) => {
    const body = parseOrThrow(CountTokensRequest, request.body);
    return { input_tokens: inputTokensOf(body) };
  });

  app.post('/messages', async (request, reply) => {
    const body = parseOrThrow(MessagesRequest, request.body);
    const stream = body.stream === true;
    const renderError = (status: number, message: string) => render(status, message);
    const controls = await exchange.gate(request, reply, body.model, renderError, { stream });
    if (!controls) return reply;
    const plan = planMessage(body);
    exchange.stats.addTokens(plan.usage.input_tokens, plan.usage.output_tokens);
    const meta = { id: `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`, model: body.model };
    if (!stream) return messageBody(plan, meta);
    await exchange.sendSse(
      request,
      reply,
      messageEvents(plan, meta).map(({ event, data }) => eventFrame(event, data)),
      controls,
    );
    return reply;
  });
};

export const anthropicProtocol: SandboxProtocol = { name: 'anthropic', prefix: '/anthropic/v1', renderError: render, plugin };
