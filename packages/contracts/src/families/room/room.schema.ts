import { z } from 'zod';
import { Capability } from '../../accounts/catalog.schema';
import { BillingMode } from '../../accounts/key.schema';

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

export const RoomModel = z.object({ id: z.string(), display_name: z.string(), capability: Capability, created_at: z.string().describe('ISO 8601') });
export type RoomModel = z.infer<typeof RoomModel>;

/** The models of a scope, the first `limit` of them, with the count before the limit. */
export const RoomModelList = z.object({ models: z.array(RoomModel), total: z.number().int().nonnegative() });
export type RoomModelList = z.infer<typeof RoomModelList>;

export const RoomModelsAnswer = z.object({ success: z.literal(true), data: RoomModelList }).describe('Models visible to this key');
export type RoomModelsAnswer = z.infer<typeof RoomModelsAnswer>;

/** Every default flag, whatever subset the tenant's own settings name, and the tenant's own flags. */
const FeatureControls = z.record(z.string(), z.boolean());

export const RoomEnterpriseContextAnswer = z
  .object({ success: z.literal(true), data: z.object({ featureControls: FeatureControls }) })
  .describe("The tenant's feature controls");
export type RoomEnterpriseContextAnswer = z.infer<typeof RoomEnterpriseContextAnswer>;

export const RoomKeyContextAnswer = z
  .object({
    success: z.literal(true),
    data: z.object({
      userId: z.string(),
      tenantSlug: z.string(),
      apiKeyId: z.string(),
      keyName: z.string(),
      kind: BillingMode,
      featureControls: FeatureControls,
    }),
  })
  .describe('The calling key and its tenant');
export type RoomKeyContextAnswer = z.infer<typeof RoomKeyContextAnswer>;
