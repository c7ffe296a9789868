import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { MediaImageInput, MediaUrl } from './media-input.schema';

/** POST /dsc/v1/services/aigc/multimodal-generation/generation (spec 4.11). */
export const DscImageRequest = z.looseObject({
  model: RequestModelName,
  input: z.looseObject({
    messages: z
      .array(
        z.looseObject({
          role: z.string().min(1),
          content: z.array(z.looseObject({ text: z.string().optional(), image: MediaImageInput.optional() })).min(1),
        }),
      )
      .min(1),
  }),
  parameters: z
    .looseObject({
      size: z
        .string()
        .regex(/^\d{2,5}\*\d{2,5}$/, 'expected <width>*<height>')
        .optional(),
      n: z.number().int().min(1).max(4).optional(),
      negative_prompt: z.string().optional(),
      prompt_extend: z.boolean().optional(),
      watermark: z.boolean().optional(),
    })
    .optional(),
});
export type DscImageRequest = z.infer<typeof DscImageRequest>;

/** POST /dsc/v1/services/aigc/video-generation/video-synthesis (spec 4.11). */
export const DscVideoRequest = z.looseObject({
  model: RequestModelName,
  input: z.looseObject({
    prompt: z.string().min(1),
    img_url: MediaImageInput.optional(),
    audio_url: MediaUrl.optional(),
  }),
  parameters: z
    .looseObject({
      resolution: z
        .string()
        .regex(/^\d{3,4}P$/, 'expected <n>P')
        .optional(),
      duration: z.number().int().min(1).max(60).optional(),
      audio: z.boolean().optional(),
      shot_type: z.string().max(32).optional(),
      prompt_extend: z.boolean().optional(),
    })
    .optional(),
});
export type DscVideoRequest = z.infer<typeof DscVideoRequest>;
