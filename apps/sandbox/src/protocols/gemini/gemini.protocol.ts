// The Gemini protocol under /gemini/v1beta: `x-goog-api-key` auth (any non-empty key, recorded in the
// stats), Gemini's error dialect, models/{model}:generateContent and :streamGenerateContent?alt=sse.
import { GatewayError, GenerateContentBody, parseOrThrow } from '@gateway/contracts';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { randomUUID } from 'node:crypto';
import { splitModelName } from '../../core/controls';
import { dataFrame } from '../../core/exchange';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { renderGeminiError } from './gemini.errors';
import { generateBody, generateChunks, planGenerate } from './generate.builder';

export const GEMINI_MODELS = ['sandbox-gemini', 'sandbox-gemini-image'];

const render = (status: number, message: string): unknown => renderGeminiError(status, message);

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange }) => {
  app.addHook('onRequest', async (request, reply) => exchange.track(request, reply));

  app.addHook('onRequest', async (request, reply) => {
    const raw = request.headers['x-goog-api-key'];
    const key = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
    if (!key) return reply.code(401).send(render(401, "Method doesn't allow unregistered callers. Please use an API key (x-goog-api-key)."));
    exchange.stats.recordKey(key);
  });

  app.setErrorHandler((error: FastifyError | GatewayError, _request, reply) => {
    if (error instanceof GatewayError) return reply.code(400).send(render(400, `Invalid value at '${error.param ?? 'body'}': ${error.message}`));
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    return reply.code(status).send(render(status, status === 500 ? 'Internal error encountered.' : error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(render(404, `Not found: ${request.method} ${request.url}`));
  });

  app.get('/models', async () => ({
    models: GEMINI_MODELS.map((id) => ({ name: `models/${id}`, displayName: id, supportedGenerationMethods: ['generateContent', 'streamGenerateContent'] })),
  }));

  app.post<{ Params: { target: string }; Querystring: { alt?: string } }>('/models/:target', async (request, reply) => {
    const colon = request.params.target.lastIndexOf(':');
    const model = colon > 0 ? request.params.target.slice(0, colon) : request.params.target;
    const action = colon > 0 ? request.params.target.slice(colon + 1) : '';
    if (action !== 'generateContent' && action !== 'streamGenerateContent') return reply.code(404).send(render(404, `Unknown method ${action || '(none)'}`));
    const stream = action === 'streamGenerateContent';
    if (stream && request.query.alt !== 'sse') return reply.code(400).send(render(400, 'this sandbox streams only with alt=sse'));
    const body = parseOrThrow(GenerateContentBody, request.body);
    const bare = splitModelName(model).name;
    if (body.generationConfig?.responseModalities?.includes('IMAGE') && !bare.includes('image')) {
      return reply.code(400).send(render(400, `Model ${bare} does not support the requested response modalities: image`));
    }
    const controls = await exchange.gate(request, reply, model, (status, message) => render(status, message), { stream });
    if (!controls) return reply;
    const plan = planGenerate(body, bare);
    exchange.stats.addTokens(plan.usage.promptTokenCount, plan.usage.candidatesTokenCount);
    const meta = { id: randomUUID().replace(/-/g, '').slice(0, 22), model: bare };
    if (!stream) return generateBody(plan, meta);
    await exchange.sendSse(request, reply, generateChunks(plan, meta).map(dataFrame), controls);
    return reply;
  });
};

export const geminiProtocol: SandboxProtocol = { name: 'gemini', prefix: '/gemini/v1beta', renderError: render, plugin };
