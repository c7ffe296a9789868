// Embeddings on Vertex's text-embedding models (`:predict`): texts become `instances[].content`, the answer's
// `predictions[].embeddings.values` the vectors and their `statistics.token_count` the prompt tokens.
import { parseOrThrow } from '@gateway/contracts';
import { z } from 'zod';
import { parseUpstreamBody } from '../../ir/upstream-error';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { vertexModelUrl } from './vertex-urls';
import { vertexLocationOf } from './vertex.settings';

export interface VertexEmbeddingsInput {
  texts: readonly string[];
  dimensions?: number | null;
  /** Vertex's task type (RETRIEVAL_QUERY, RETRIEVAL_DOCUMENT, …), where the caller knows it. */
  taskType?: string | null;
}

export interface VertexEmbeddings {
  vectors: number[][];
  promptTokens: number;
}

const PredictAnswer = z.object({
  predictions: z.array(
    z.object({
      embeddings: z.object({
        values: z.array(z.number()),
        statistics: z.object({ token_count: z.number().nonnegative() }).loose().optional(),
      }),
    }),
  ),
});

export function toVertexEmbeddingsRequest(input: VertexEmbeddingsInput, channel: ChannelTarget): UpstreamRequest {
  const instances = input.texts.map((content) => ({ content, ...(input.taskType ? { task_type: input.taskType } : {}) }));
  const body = { instances, ...(input.dimensions ? { parameters: { outputDimensionality: input.dimensions } } : {}) };
  return {
    method: 'POST',
    url: vertexModelUrl(vertexLocationOf(channel), 'google', channel.upstreamModel, 'predict'),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    stream: false,
  };
}

export function fromVertexEmbeddings(body: unknown): VertexEmbeddings {
  const answer = parseUpstreamBody(() => parseOrThrow(PredictAnswer, body));
  return {
    vectors: answer.predictions.map((prediction) => prediction.embeddings.values),
    promptTokens: answer.predictions.reduce((sum, prediction) => sum + (prediction.embeddings.statistics?.token_count ?? 0), 0),
  };
}
