// Vertex's publisher-model path, /{v1|v1beta1}/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method},
// behind a bearer token the sandbox's token endpoint issued and that has not expired. Google's models go to the
// Gemini methods, Anthropic's to rawPredict.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Exchange } from '../../core/exchange';
import type { AccessTokens } from './access-tokens';
import { answerClaude } from './vertex-claude.routes';
import { answerGemini } from './vertex-gemini.routes';
import { renderVertexError, UNAUTHENTICATED_MESSAGE } from './vertex.errors';

export interface PublisherCall {
  request: FastifyRequest;
  reply: FastifyReply;
  exchange: Exchange;
  /** The model named in the path, control options included. */
  model: string;
  method: string;
  alt: string | undefined;
}

interface ModelRoute {
  Params: { project: string; location: string; publisher: string; target: string };
  Querystring: { alt?: string };
}

/** @google/genai calls v1beta1 by default, @anthropic-ai/vertex-sdk v1. */
const API_VERSIONS = ['v1', 'v1beta1'];

function bearerOf(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match ? match[1]! : null;
}

export function registerModelRoutes(app: FastifyInstance, { exchange, tokens }: { exchange: Exchange; tokens: AccessTokens }): void {
  app.addHook('onRequest', async (request, reply) => {
    const token = bearerOf(request);
    const holder = token ? tokens.holder(token, Date.now()) : null;
    if (!holder) return reply.code(401).send(renderVertexError(401, UNAUTHENTICATED_MESSAGE));
    exchange.stats.recordKey(holder);
  });

  const answer = async (request: FastifyRequest<ModelRoute>, reply: FastifyReply): Promise<unknown> => {
    const { publisher, target } = request.params;
    const colon = target.lastIndexOf(':');
    const call: PublisherCall = {
      request,
      reply,
      exchange,
      model: colon > 0 ? target.slice(0, colon) : target,
      method: colon > 0 ? target.slice(colon + 1) : '',
      alt: request.query.alt,
    };
    if (publisher === 'google') return answerGemini(call);
    if (publisher === 'anthropic') return answerClaude(call);
    return reply.code(404).send(renderVertexError(404, `Publisher ${publisher} is not found.`));
  };
  for (const version of API_VERSIONS) app.post<ModelRoute>(`/${version}/projects/:project/locations/:location/publishers/:publisher/models/:target`, answer);
}
