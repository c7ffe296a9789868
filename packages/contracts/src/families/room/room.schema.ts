import { z } from 'zod';

export const RoomModelsQuery = z.object({
  scope: z.string().min(1),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type RoomModelsQuery = z.infer<typeof RoomModelsQuery>;

/** Feature controls every tenant has, with their defaults; tenants may add their own flags. */
export const DEFAULT_FEATURE_CONTROLS = {
  mediaAuthorizedAssets: false,
  chat: true,
  media: true,
  music: true,
} as const;
