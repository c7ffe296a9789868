import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';

/** POST /oaic/v1/images/generations (spec 4.6). */
export const ImageGenerationRequest = z.looseObject({
  model: RequestModelName,
  prompt: z.string().min(1),
  size: z
    .string()
    .regex(/^\d+x\d+$|^auto$/, 'expected <w>x<h>')
    .optional(),
  n: z.number().int().min(1).max(10).optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
  user: z.string().optional(),
});
export type ImageGenerationRequest = z.infer<typeof ImageGenerationRequest>;
