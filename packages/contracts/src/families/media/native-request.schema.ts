import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { AspectRatio, MediaImageInput, MediaSeconds, MediaUrl } from './media-input.schema';

/** The native routes' kinds: the path segment after /videos or /images, also the only route a task is read on. */
export const NativeVideoKind = z.enum(['text2video', 'image2video', 'omni-video']);
export const NativeImageKind = z.enum(['generations', 'omni-image']);
export type NativeVideoKind = z.infer<typeof NativeVideoKind>;
export type NativeImageKind = z.infer<typeof NativeImageKind>;
export type NativeKind = NativeVideoKind | NativeImageKind;

/** POST /nativemedia/v1/videos/{text2video|image2video|omni-video} (spec 4.12). Wrong fields are kept so the rules can name them. */
export const NativeVideoRequest = z.looseObject({
  model_name: RequestModelName,
  model: RequestModelName.optional(),
  prompt: z.string().min(1).max(4000),
  negative_prompt: z.string().max(4000).optional(),
  mode: z.enum(['std', 'pro']).optional(),
  duration: MediaSeconds.optional(),
  aspect_ratio: AspectRatio.optional(),
  generate_audio: z.boolean().optional(),
  sound: z.string().max(32).optional(),
  voice_id: z.string().max(128).optional(),
  image: MediaImageInput.optional(),
  image_tail: MediaImageInput.optional(),
  image_list: z
    .array(z.looseObject({ image_url: MediaImageInput, type: z.enum(['first_frame', 'end_frame']).optional() }))
    .max(8)
    .optional(),
  video_list: z
    .array(z.looseObject({ video_url: MediaUrl }))
    .max(4)
    .optional(),
});
export type NativeVideoRequest = z.infer<typeof NativeVideoRequest>;

/** POST /nativemedia/v1/images/{generations|omni-image}: the native image fields (the spec shows none; the vendor's). */
export const NativeImageRequest = z.looseObject({
  model_name: RequestModelName,
  model: RequestModelName.optional(),
  prompt: z.string().min(1).max(4000),
  negative_prompt: z.string().max(4000).optional(),
  n: z.number().int().min(1).max(9).optional(),
  aspect_ratio: AspectRatio.optional(),
  image: MediaImageInput.optional(),
  image_list: z
    .array(z.looseObject({ image_url: MediaImageInput }))
    .max(8)
    .optional(),
});
export type NativeImageRequest = z.infer<typeof NativeImageRequest>;
