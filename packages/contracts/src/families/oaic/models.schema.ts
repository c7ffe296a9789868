import { z } from 'zod';

/** Cursor pagination of model lists (oaic and msgc share it). */
export const ModelListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    after_id: z.string().min(1).optional(),
    before_id: z.string().min(1).optional(),
  })
  .refine((q) => !(q.after_id && q.before_id), { message: 'give after_id or before_id, not both', path: ['before_id'] });
export type ModelListQuery = z.infer<typeof ModelListQuery>;

export const ModelRecord = z.object({
  id: z.string(),
  object: z.literal('model'),
  type: z.literal('model'),
  display_name: z.string(),
  created: z.number().int(),
  created_at: z.string(),
  owned_by: z.string(),
});
export type ModelRecord = z.infer<typeof ModelRecord>;

export const ModelList = z.object({
  object: z.literal('list'),
  data: z.array(ModelRecord),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});
export type ModelList = z.infer<typeof ModelList>;
