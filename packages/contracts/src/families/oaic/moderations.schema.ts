import { z } from 'zod';
import { RequestModelName } from '../model-name.schema';
import { addUrlIssue } from '../../url-policy/url-policy.schema';

const ModerationInputItem = z.looseObject({ type: z.enum(['text', 'image_url']) });

/** POST /oaic/v1/moderations (spec 4.6). Without `model` the tenant's first moderation model is used. */
export const ModerationRequest = z
  .looseObject({
    input: z.union([z.string(), z.array(z.string()).min(1), z.array(ModerationInputItem).min(1)], {
      error: 'expected a string, an array of strings, or an array of text/image_url items',
    }),
    model: RequestModelName.optional(),
  })
  .superRefine((body, ctx) => {
    if (!Array.isArray(body.input)) return;
    body.input.forEach((item, i) => {
      if (typeof item !== 'object' || item.type !== 'image_url') return;
      const url = (item.image_url as { url?: unknown } | undefined)?.url;
      if (typeof url === 'string') addUrlIssue(ctx, url, ['input', i, 'image_url', 'url'], { data: 'image' });
      else ctx.addIssue({ code: 'custom', path: ['input', i, 'image_url', 'url'], message: 'an image_url item needs image_url.url' });
    });
  });
export type ModerationRequest = z.infer<typeof ModerationRequest>;

/** One result per input: flagged or not, by category, with the scores behind it. */
export const ModerationResponse = z
  .looseObject({
    id: z.string(),
    model: z.string(),
    results: z.array(
      z.looseObject({
        flagged: z.boolean(),
        categories: z.record(z.string(), z.boolean()),
        category_scores: z.record(z.string(), z.number()),
      }),
    ),
  })
  .describe('A moderation of each input');
export type ModerationResponse = z.infer<typeof ModerationResponse>;
