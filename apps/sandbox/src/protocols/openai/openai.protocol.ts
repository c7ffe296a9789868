// The OpenAI-compatible protocol under /openai/v1: bearer auth (any non-empty key, recorded in the stats so
// key forwarding can be checked), OpenAI's error dialect, and the text and media routes.
import { GatewayError } from '@gateway/contracts';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { renderOpenaiError } from './openai.errors';
import { registerOpenaiAssistantsRoutes } from './openai-assistants.routes';
import { registerOpenaiBatchRoutes } from './openai-batches.routes';
import { registerOpenaiMediaRoutes } from './openai-media.routes';
import { registerOpenaiTextRoutes } from './openai-text.routes';
import { registerOpenaiVideoRoutes } from './openai-videos.routes';

function codeFor(error: GatewayError): string {
  return error.message.startsWith('Missing required parameter') ? 'missing_required_parameter' : 'invalid_value';
}

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, deps) => {
  app.addHook('onRequest', async (request, reply) => deps.exchange.track(request, reply));

  app.addHook('onRequest', async (request, reply) => {
    const auth = request.headers.authorization;
    const key = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (!key) {
      const message =
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
      return reply.code(401).send(renderOpenaiError(401, message, null, null));
    }
    deps.exchange.stats.recordKey(key);
  });

  app.setErrorHandler((error: FastifyError | GatewayError, _request, reply) => {
    if (error instanceof GatewayError) {
      return reply.code(400).send(renderOpenaiError(400, error.message, error.param, codeFor(error)));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    // Body-parser failures (bad JSON, too large) are the client's fault and keep their status.
    const message = status === 500 ? 'The server had an error while processing your request.' : error.message;
    if (status === 500) app.log.error(error);
    return reply.code(status).send(renderOpenaiError(status, message, null, null));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(renderOpenaiError(404, `Invalid URL (${request.method} ${request.url})`, null, null));
  });

  registerOpenaiTextRoutes(app, deps);
  registerOpenaiMediaRoutes(app, deps);
  registerOpenaiVideoRoutes(app, deps);
  registerOpenaiAssistantsRoutes(app, deps);
  registerOpenaiBatchRoutes(app, deps);
};

export const openaiProtocol: SandboxProtocol = { name: 'openai', prefix: '/openai/v1', renderError: renderOpenaiError, plugin };
