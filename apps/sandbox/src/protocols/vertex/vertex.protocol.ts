// Google Vertex AI under /vertex: an OAuth token endpoint for service-account assertions (/vertex/token) and
// the publisher models under /vertex/v1 behind the tokens it issued, Gemini's methods and Claude's rawPredict.
// A client's base URL is /vertex (@google/genai) or /vertex/v1 (@anthropic-ai/vertex-sdk).
import { GatewayError } from '@gateway/contracts';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { AccessTokens } from './access-tokens';
import { trustedAccountOf, VERTEX_TEST_SERVICE_ACCOUNT } from './test-service-account';
import { registerModelRoutes } from './vertex-models.routes';
import { registerTokenRoutes } from './vertex-token.routes';
import { renderPublisherError, renderVertexError } from './vertex.errors';

const render = (status: number, message: string): unknown => renderVertexError(status, message);

function publisherOf(params: unknown): string | undefined {
  return params && typeof params === 'object' && 'publisher' in params && typeof params.publisher === 'string' ? params.publisher : undefined;
}

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange }) => {
  const tokens = new AccessTokens();
  const account = trustedAccountOf(VERTEX_TEST_SERVICE_ACCOUNT);
  const accounts = new Map([[account.email, account]]);

  app.addHook('onRequest', async (request, reply) => exchange.track(request, reply));

  app.setErrorHandler((error: FastifyError | GatewayError, request, reply) => {
    const publisher = publisherOf(request.params);
    if (error instanceof GatewayError) return reply.code(400).send(renderPublisherError(publisher, 400, `${error.param ?? 'body'}: ${error.message}`));
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    return reply.code(status).send(renderPublisherError(publisher, status, status === 500 ? 'Internal error encountered.' : error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(render(404, `Not found: ${request.method} ${request.url}`));
  });

  registerTokenRoutes(app, { exchange, tokens, accounts });
  await app.register(async (models) => registerModelRoutes(models, { exchange, tokens }));
};

export const vertexProtocol: SandboxProtocol = { name: 'vertex', prefix: '/vertex', renderError: render, plugin };
