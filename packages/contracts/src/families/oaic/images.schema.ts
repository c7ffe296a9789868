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

/** An image the gateway stored, named for the edge to read and inline as `b64_json` (bytes never ride NATS). */
export const StoredImageRef = z.object({ objectKey: z.string().min(1), contentType: z.string().min(1), size: z.number().int().nonnegative() });
export type StoredImageRef = z.infer<typeof StoredImageRef>;

/**
 * The images answer as the media service hands it on: OpenAI's shape, except that a `b64_json` item
 * travels as `stored` (where the bytes wait), which the edge replaces with the bytes in Base64.
 */
export const StoredImagesReply = z.object({
  created: z.number().int(),
  data: z.array(z.union([z.object({ url: z.url() }), z.object({ stored: StoredImageRef })])),
});
export type StoredImagesReply = z.infer<typeof StoredImagesReply>;

/** The images answer as the client gets it: each image as a link (signed gateway links for stored results) or inline Base64. */
export const ImagesResponse = z
  .looseObject({
    created: z.number().int().describe('Unix seconds'),
    data: z.array(z.looseObject({ url: z.string().optional(), b64_json: z.string().optional(), revised_prompt: z.string().optional() })),
  })
  .describe('Generated images');
export type ImagesResponse = z.infer<typeof ImagesResponse>;
