import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';

/** POST /oaic/v1/embeddings (spec 4.6). */
export const EmbeddingRequest = z.looseObject({
  model: RequestModelName,
  input: z.union([z.string(), z.array(z.string()).min(1), z.array(z.number().int()).min(1), z.array(z.array(z.number().int()).min(1)).min(1)], {
    error: 'expected a string, an array of strings, or token arrays',
  }),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().positive().optional(),
  user: z.string().optional(),
});
export type EmbeddingRequest = z.infer<typeof EmbeddingRequest>;

/** The embeddings of each input, in input order: floats, or Base64 when `encoding_format` is base64. */
export const EmbeddingResponse = z
  .looseObject({
    object: z.literal('list'),
    data: z.array(
      z.looseObject({
        object: z.literal('embedding'),
        index: z.number().int().nonnegative(),
        embedding: z.union([z.array(z.number()), z.string()]),
      }),
    ),
    model: z.string(),
    usage: z.looseObject({ prompt_tokens: z.number().int().nonnegative(), total_tokens: z.number().int().nonnegative() }),
  })
  .describe('A list of embeddings');
export type EmbeddingResponse = z.infer<typeof EmbeddingResponse>;
