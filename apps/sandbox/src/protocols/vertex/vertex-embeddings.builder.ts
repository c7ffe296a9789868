// Pure builders for Vertex's two embeddings methods: `:predict` of the text-embedding models
// (instances[].content → predictions[].embeddings.values with statistics.token_count) and `:embedContent`
// of the Gemini embedding models (one content → embedding.values with usageMetadata).
import { z } from 'zod';
import { countTokens } from '../../core/tokenizer';
import { embeddingVector } from '../openai/embeddings.builder';

const DEFAULT_DIMENSIONS = 768;
const Dimensions = z.number().int().positive().max(3072);

export const PredictEmbeddingsBody = z
  .object({
    instances: z
      .array(z.object({ content: z.string(), task_type: z.string().optional(), title: z.string().optional() }).loose())
      .min(1)
      .max(250),
    parameters: z.object({ outputDimensionality: Dimensions.optional(), autoTruncate: z.boolean().optional() }).loose().optional(),
  })
  .loose();
export type PredictEmbeddingsBody = z.infer<typeof PredictEmbeddingsBody>;

export const EmbedContentBody = z
  .object({
    content: z.object({ role: z.string().optional(), parts: z.array(z.object({ text: z.string() }).loose()).min(1) }).loose(),
    embedContentConfig: z
      .object({
        taskType: z.string().optional(),
        title: z.string().optional(),
        outputDimensionality: Dimensions.optional(),
        autoTruncate: z.boolean().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type EmbedContentBody = z.infer<typeof EmbedContentBody>;

export function predictEmbeddingsBody(body: PredictEmbeddingsBody): { answer: Record<string, unknown>; tokens: number } {
  const dimensions = body.parameters?.outputDimensionality ?? DEFAULT_DIMENSIONS;
  let tokens = 0;
  const predictions = body.instances.map((instance) => {
    const count = countTokens(instance.content);
    tokens += count;
    return { embeddings: { values: embeddingVector(instance.content, dimensions), statistics: { token_count: count, truncated: false } } };
  });
  const characters = body.instances.reduce((sum, instance) => sum + instance.content.length, 0);
  return { answer: { predictions, metadata: { billableCharacterCount: characters } }, tokens };
}

export function embedContentBody(body: EmbedContentBody): { answer: Record<string, unknown>; tokens: number } {
  const text = body.content.parts.map((part) => part.text).join(' ');
  const tokens = countTokens(text);
  const values = embeddingVector(text, body.embedContentConfig?.outputDimensionality ?? DEFAULT_DIMENSIONS);
  return { answer: { embedding: { values }, usageMetadata: { promptTokenCount: tokens, totalTokenCount: tokens }, truncated: false }, tokens };
}
