import { TaskHold } from '@gateway/billing';
import { z } from 'zod';

/** One stored result file of a task. */
export const StoredResult = z.object({
  key: z.string().min(1),
  contentType: z.string().min(1),
  size: z.number().int().nonnegative(),
  kind: z.enum(['video', 'image']),
});
export type StoredResult = z.infer<typeof StoredResult>;

/** What the task produced, as metered: seconds of video, images. */
export const ProducedUsage = z.object({ seconds: z.number().nonnegative().optional(), images: z.number().int().nonnegative().optional() });
export type ProducedUsage = z.infer<typeof ProducedUsage>;

/** The normalized request (MediaJob) as the row keeps it; parsed loosely, it was built by this service. */
export const StoredJob = z.looseObject({
  output: z.enum(['video', 'image']),
  nativeKind: z.enum(['text2video', 'image2video', 'omni-video', 'generations', 'omni-image']),
  prompt: z.string(),
  seconds: z.number().optional(),
  images: z.number().optional(),
});

export const StoredResults = z.array(StoredResult);
export const StoredHold = TaskHold.nullable();
