import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { AspectRatio, MediaImageInput, MediaSeconds, MediaUrl } from './media-input.schema';

/** POST /oaic/v1/videos (spec 4.10). `seconds` and `size` are OpenAI's own names, accepted too. */
export const VideoCreateRequest = z.looseObject({
  model: RequestModelName,
  prompt: z.string().min(1),
  duration: MediaSeconds.optional(),
  seconds: MediaSeconds.optional(),
  size: z
    .string()
    .regex(/^\d{2,5}x\d{2,5}$/, 'expected <w>x<h>')
    .optional(),
  aspect_ratio: AspectRatio.optional(),
  mode: z.enum(['std', 'pro']).optional(),
  generate_audio: z.boolean().optional(),
  sound: z.string().max(32).optional(),
  image: MediaImageInput.optional(),
  input_reference: MediaImageInput.optional(),
  frame_images: z
    .array(z.looseObject({ url: MediaImageInput, role: z.string().max(32).optional(), frame_type: z.string().max(32).optional() }))
    .max(8)
    .optional(),
  input_references: z
    .array(z.looseObject({ url: MediaUrl, type: z.enum(['image', 'video', 'audio']).optional() }))
    .max(8)
    .optional(),
});
export type VideoCreateRequest = z.infer<typeof VideoCreateRequest>;
