import { z } from 'zod';

export const Capability = z.enum(['chat', 'embedding', 'moderation', 'image', 'tts', 'stt', 'video', 'music']);
export type Capability = z.infer<typeof Capability>;

/** A catalog model as a tenant may see it (never its upstream channels). */
export const VisibleModel = z.object({
  id: z.string(),
  displayName: z.string(),
  capability: Capability,
  /** ISO timestamp the model was published. */
  createdAt: z.string(),
});
export type VisibleModel = z.infer<typeof VisibleModel>;

export const VisibleModelsRequest = z.object({ tenantId: z.string() });
export const VisibleModelsReply = z.array(VisibleModel);
export type VisibleModelsReply = z.infer<typeof VisibleModelsReply>;
