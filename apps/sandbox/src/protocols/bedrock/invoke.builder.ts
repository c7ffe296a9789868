// InvokeModel bodies the sandbox answers: Titan and Cohere embeddings (vectors seeded by the text, as
// the OpenAI protocol's are) and Claude's Messages body in Bedrock's dialect (`anthropic_version`, no
// `model`, no `stream`: the path names both).
import { MessagesRequest } from '@gateway/contracts';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { countTokens } from '../../core/tokenizer';
import { embeddingVector } from '../openai/embeddings.builder';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
/** Bedrock's own version, or a dated Messages version: @anthropic-ai/bedrock-sdk moves its `anthropic-version` header into the body. */
const AnthropicVersion = z.union([z.literal(BEDROCK_ANTHROPIC_VERSION), z.string().regex(/^\d{4}-\d{2}-\d{2}$/)], {
  error: `expected "${BEDROCK_ANTHROPIC_VERSION}"`,
});

export const TitanEmbedRequest = z.strictObject({
  inputText: z.string().min(1).max(50_000),
  dimensions: z.union([z.literal(256), z.literal(512), z.literal(1024)]).optional(),
  normalize: z.boolean().optional(),
  embeddingTypes: z
    .array(z.enum(['float', 'binary']))
    .min(1)
    .optional(),
});
export type TitanEmbedRequest = z.infer<typeof TitanEmbedRequest>;

export const CohereEmbedRequest = z.strictObject({
  texts: z.array(z.string().max(2048)).min(1).max(96),
  input_type: z.enum(['search_document', 'search_query', 'classification', 'clustering']),
  truncate: z.enum(['NONE', 'START', 'END']).optional(),
  embedding_types: z
    .array(z.enum(['float', 'int8', 'uint8', 'binary', 'ubinary']))
    .min(1)
    .optional(),
});
export type CohereEmbedRequest = z.infer<typeof CohereEmbedRequest>;

/** Claude's body on Bedrock: Messages without `model` and `stream`, with Bedrock's version; anything unknown refused. */
export const BedrockClaudeRequest = MessagesRequest.omit({ model: true, stream: true })
  .extend({ anthropic_version: AnthropicVersion, anthropic_beta: z.array(z.string()).optional() })
  .strict();
export type BedrockClaudeRequest = z.infer<typeof BedrockClaudeRequest>;

export interface InvokeAnswer {
  body: Record<string, unknown>;
  inputTokens: number;
  outputTokens: number;
}

const TITAN_DIMENSIONS = 1024;

function scaled(vector: number[], normalize: boolean): number[] {
  // Unnormalised Titan vectors are not unit length; a fixed scale stands for the model's raw magnitude.
  return normalize ? vector : vector.map((value) => Math.fround(value * 10));
}

export function titanEmbedding(request: TitanEmbedRequest): InvokeAnswer {
  const vector = scaled(embeddingVector(request.inputText, request.dimensions ?? TITAN_DIMENSIONS), request.normalize ?? true);
  const inputTokens = countTokens(request.inputText);
  const byType = request.embeddingTypes
    ? {
        embeddingsByType: Object.fromEntries(request.embeddingTypes.map((type) => [type, type === 'float' ? vector : vector.map((v) => (v > 0 ? 1 : 0))])),
      }
    : {};
  return { body: { embedding: vector, inputTextTokenCount: inputTokens, ...byType }, inputTokens, outputTokens: 0 };
}

export function cohereEmbeddings(request: CohereEmbedRequest, dimensions: number): InvokeAnswer {
  const vectors = request.texts.map((text) => embeddingVector(`${request.input_type}:${text}`, dimensions));
  const inputTokens = request.texts.reduce((sum, text) => sum + countTokens(text), 0);
  const id = randomUUID();
  if (!request.embedding_types)
    return { body: { embeddings: vectors, id, response_type: 'embeddings_floats', texts: request.texts }, inputTokens, outputTokens: 0 };
  const quantised = (type: string) =>
    vectors.map((vector) => (type === 'float' ? vector : vector.map((v) => Math.max(-128, Math.min(127, Math.round(v * 127))) + (type === 'int8' ? 0 : 128))));
  const embeddings = Object.fromEntries(request.embedding_types.map((type) => [type, quantised(type)]));
  return { body: { embeddings, id, response_type: 'embeddings_by_type', texts: request.texts }, inputTokens, outputTokens: 0 };
}
