// Amazon Bedrock Runtime under /bedrock: every call SigV4-signed with the sandbox's test key for its
// region, Bedrock's error dialect, Converse and ConverseStream for chat models of any maker, InvokeModel
// for Titan and Cohere embeddings and for Claude's Messages body (whole and as a stream of chunks).
import { GatewayError } from '@gateway/contracts';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ControlError } from '../../core/controls';
import type { ProtocolDeps, SandboxProtocol } from '../../core/protocol';
import { BedrockError, bedrockErrorTypeHeader, bedrockErrorTypeOf, renderBedrockError } from './bedrock.errors';
import { bedrockInvokeRoutes } from './bedrock-invoke.routes';
import { bedrockConverseRoutes } from './bedrock-converse.routes';
import { verifySigV4 } from './sigv4.verifier';

function sendError(reply: FastifyReply, error: BedrockError): FastifyReply {
  return reply.code(error.status).header('x-amzn-errortype', bedrockErrorTypeHeader(error.type)).send(renderBedrockError(error.status, error.message));
}

function asBedrockError(error: unknown): BedrockError | null {
  if (error instanceof BedrockError) return error;
  if (error instanceof ControlError) return new BedrockError(400, 'ValidationException', error.message);
  if (error instanceof GatewayError) return new BedrockError(400, 'ValidationException', `${error.param ?? 'body'}: ${error.message}`);
  return null;
}

async function verify(request: FastifyRequest): Promise<void> {
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  await verifySigV4({ method: request.method, rawUrl: request.url, headers: request.headers, body });
}

const plugin: FastifyPluginAsync<ProtocolDeps> = async (app, { exchange, files, holds }) => {
  app.addHook('onRequest', async (request, reply) => {
    exchange.track(request, reply);
    reply.header('x-amzn-requestid', request.id);
  });
  // The signature covers the body's bytes as sent, so they stay raw until it is checked.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.addHook('preHandler', async (request) => {
    await verify(request);
    exchange.stats.recordKey(request.headers.authorization?.split('/')[0] ?? 'bedrock');
  });
  // Failures the shared controls answer know only their status: the exception's name follows from it.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 400 && !reply.hasHeader('x-amzn-errortype'))
      reply.header('x-amzn-errortype', bedrockErrorTypeHeader(bedrockErrorTypeOf(reply.statusCode)));
    return payload;
  });

  app.setErrorHandler((error: FastifyError | Error, _request, reply) => {
    const known = asBedrockError(error);
    if (known) return sendError(reply, known);
    const status = 'statusCode' in error && error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) app.log.error(error);
    return sendError(reply, new BedrockError(status, bedrockErrorTypeOf(status), status === 500 ? 'Internal server error' : error.message));
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(reply, new BedrockError(404, 'ResourceNotFoundException', `Not found: ${request.method} ${request.url}`));
  });

  await app.register(bedrockConverseRoutes, { exchange, files, holds });
  await app.register(bedrockInvokeRoutes, { exchange, files, holds });
};

export const bedrockProtocol: SandboxProtocol = {
  name: 'bedrock',
  prefix: '/bedrock',
  renderError: (status, message) => renderBedrockError(status, message),
  plugin,
};
