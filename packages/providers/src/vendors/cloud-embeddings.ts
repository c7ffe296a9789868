// oaic embeddings on the clouds that do not speak the OpenAI API: Bedrock's InvokeModel (Titan one text per
// call, Cohere a batch) and Vertex's `:predict`. Each turns a request into its calls and their answers into one
// oaic list, and reads its own refusals.
import type { EmbeddingRequest, EmbeddingResponse, ProviderProtocol } from '@gateway/contracts';
import type { UpstreamErrorTransform } from '../ir/upstream-error';
import type { ChannelTarget, UpstreamRequest } from '../provider.types';
import {
  embeddingList,
  embeddingTexts,
  fromCohereEmbeddings,
  fromTitanEmbeddings,
  invokeInputTokens,
  toCohereEmbedRequest,
  toTitanEmbedRequests,
} from './bedrock/bedrock-embeddings.transform';
import { fromBedrockError } from './bedrock/bedrock-error.transform';
import { fromGeminiError } from './gemini/gemini-error.transform';
import { fromVertexEmbeddings, toVertexEmbeddingsRequest } from './vertex/vertex-embeddings.transform';

/** One upstream answer of an embeddings call: its JSON body and headers. */
export interface EmbeddingsAnswer {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface EmbeddingsDialect {
  /** The calls one request takes on this channel, in input order. */
  requests(request: EmbeddingRequest, channel: ChannelTarget): UpstreamRequest[];
  /** Their answers, in the same order, as one oaic list reporting `model`. */
  answer(answers: readonly EmbeddingsAnswer[], request: EmbeddingRequest, model: string, channel: ChannelTarget): EmbeddingResponse;
  fromError: UpstreamErrorTransform;
}

/** Cohere's embedding models (`cohere.embed-…`, in a profile or ARN too); Bedrock's others answer as Titan does. */
function isCohere(channel: ChannelTarget): boolean {
  return channel.upstreamModel.includes('cohere.embed');
}

const bedrockEmbeddings: EmbeddingsDialect = {
  requests: (request, channel) => (isCohere(channel) ? [toCohereEmbedRequest(request, channel)] : toTitanEmbedRequests(request, channel)),
  answer: (answers, request, model, channel) =>
    isCohere(channel)
      ? fromCohereEmbeddings(answers[0]!.body, request, model, invokeInputTokens(answers[0]!.headers))
      : fromTitanEmbeddings(
          answers.map((answer) => answer.body),
          request,
          model,
        ),
  fromError: fromBedrockError,
};

const vertexEmbeddings: EmbeddingsDialect = {
  requests: (request, channel) => [toVertexEmbeddingsRequest({ texts: embeddingTexts(request), dimensions: request.dimensions }, channel)],
  answer: (answers, request, model) => {
    const { vectors, promptTokens } = fromVertexEmbeddings(answers[0]!.body);
    return embeddingList(vectors, request, model, promptTokens);
  },
  fromError: fromGeminiError,
};

const DIALECTS: Partial<Record<ProviderProtocol, EmbeddingsDialect>> = { bedrock: bedrockEmbeddings, vertex: vertexEmbeddings };

/** The embeddings dialect of a cloud protocol; null for the OpenAI-compatible ones (and those that embed nothing). */
export function embeddingsDialectOf(protocol: ProviderProtocol): EmbeddingsDialect | null {
  return DIALECTS[protocol] ?? null;
}

/** Whether oaic embeddings reach a channel of this protocol through a dialect of its own. */
export function embedsNatively(protocol: ProviderProtocol): boolean {
  return protocol in DIALECTS;
}
