import { z } from 'zod';
import { TenantCaller } from '../tenant-caller.schema';

/**
 * Who is calling and on which route (the route id says the family and the kind), plus the public origin
 * the edge answers on: result links are signed gateway URLs on that origin.
 */
export const MediaCaller = TenantCaller.extend({ origin: z.url() });
export type MediaCaller = z.infer<typeof MediaCaller>;

export const MediaCreatePayload = MediaCaller.extend({ body: z.unknown() });
export type MediaCreatePayload = z.infer<typeof MediaCreatePayload>;

export const MediaGetPayload = MediaCaller.extend({ taskId: z.string().min(1).max(128) });
export type MediaGetPayload = z.infer<typeof MediaGetPayload>;

/** The longest a synchronous image generation may wait for its task (the images API has no task to poll). */
export const MEDIA_IMAGE_MAX_WAIT_MS = 600_000;

export const MediaImageGeneratePayload = MediaCaller.extend({
  body: z.unknown(),
  /** How long to wait for the task's end before answering upstream_timeout (the task goes on). */
  waitMs: z.number().int().min(1000).max(MEDIA_IMAGE_MAX_WAIT_MS),
});
export type MediaImageGeneratePayload = z.infer<typeof MediaImageGeneratePayload>;

export const MediaTaskEndedEvent = z.object({ taskId: z.string().min(1).max(128) });
export type MediaTaskEndedEvent = z.infer<typeof MediaTaskEndedEvent>;

/** A task as its family shows it (rendered by the media service). */
export const MediaTaskReply = z.looseObject({});
export type MediaTaskReply = z.infer<typeof MediaTaskReply>;

export const MediaContentReply = z.object({ objectKey: z.string().min(1), contentType: z.string().min(1), size: z.number().int().nonnegative() });
export type MediaContentReply = z.infer<typeof MediaContentReply>;

/** Task ids are the server's: a prefix, then lowercase hex; anything else cannot name a task. */
export const MediaTaskId = z.string().regex(/^(video|task|img)_[0-9a-f]{32}$/, 'not a task id of this gateway');
