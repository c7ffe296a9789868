import { z } from 'zod';

/** POST /oaic/v1/responses (spec 4.3). `input` is a string, or input items passed on unchanged. */
export const ResponseCreateRequest = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.looseObject({}))], { error: 'expected a string or an array of input items' }),
  instructions: z.string().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  stream: z.boolean().nullish(),
  user: z.string().optional(),
});
export type ResponseCreateRequest = z.infer<typeof ResponseCreateRequest>;

/** GET /oaic/v1/responses/{response_id} path parameter. */
export const ResponseIdParam = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'not a response id');
