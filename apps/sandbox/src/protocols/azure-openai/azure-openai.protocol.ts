// Azure OpenAI under /azure: an `api-key` (the sandbox's known key) or a bearer token the sandbox's own
// identity platform issued, Azure's error shapes, the deployment and v1 paths. The identity platform
// (OpenID configuration and token endpoint) sits at the root, where MSAL looks for `{authority}/{tenant}`.
import { GatewayError } from '@gateway/contracts';
import type { FastifyError, FastifyPluginAsync } from 'fastify';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { registerAzureIdentityRoutes } from './azure-identity.routes';
import { AZURE_NOT_FOUND, AZURE_UNAUTHORIZED, renderAzureError } from './azure-openai.errors';
import { registerAzureOpenaiRoutes } from './azure-openai.routes';
import { AzureTokenIssuer, SANDBOX_AZURE_API_KEY } from './azure-token-issuer';

const api: FastifyPluginAsync<ProtocolDeps & { issuer: AzureTokenIssuer }> = async (app, deps) => {
  app.addHook('onRequest', async (request, reply) => deps.exchange.track(request, reply));

  app.addHook('onRequest', async (request, reply) => {
    const key = request.headers['api-key'];
    if (typeof key === 'string' && key !== '') {
      if (key !== SANDBOX_AZURE_API_KEY) return reply.code(401).send(AZURE_UNAUTHORIZED);
      deps.exchange.stats.recordKey(key);
      return;
    }
    const auth = request.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    const state = token ? deps.issuer.check(token) : 'unknown';
    if (state === 'expired') return reply.code(401).send({ error: { code: '401', message: 'Unauthorized. Access token has expired.' } });
    if (state !== 'valid') return reply.code(401).send(AZURE_UNAUTHORIZED);
    deps.exchange.stats.recordKey('entra-token');
  });

  app.setErrorHandler((error: FastifyError | GatewayError, _request, reply) => {
    if (error instanceof GatewayError) return reply.code(400).send(renderAzureError(400, error.message, error.param, 'invalid_value'));
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    return reply
      .code(status)
      .send(renderAzureError(status, status === 500 ? 'The server had an error while processing your request.' : error.message, null, null));
  });

  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send(AZURE_NOT_FOUND);
  });

  registerAzureOpenaiRoutes(app, deps);
};

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, deps) => {
  const issuer = new AzureTokenIssuer();
  await app.register(async (identity) => registerAzureIdentityRoutes(identity, issuer));
  await app.register(api, { ...deps, issuer, prefix: '/azure' });
};

export const azureOpenaiProtocol: SandboxProtocol = { name: 'azure-openai', prefix: '', renderError: renderAzureError, plugin };
