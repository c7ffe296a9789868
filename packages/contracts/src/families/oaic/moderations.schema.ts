import { z } from 'zod';

const ModerationInputItem = z.looseObject({ type: z.enum(['text', 'image_url']) });

/** POST /oaic/v1/moderations (spec 4.6). Without `model` the tenant's first moderation model is used. */
export const ModerationRequest = z.looseObject({
  input: z.union([z.string(), z.array(z.string()).min(1), z.array(ModerationInputItem).min(1)], {
    error: 'expected a string, an array of strings, or an array of text/image_url items',
  }),
  model: z.string().min(1).optional(),
});
export type ModerationRequest = z.infer<typeof ModerationRequest>;
