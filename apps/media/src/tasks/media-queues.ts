import { z } from 'zod';

/** The media service's BullMQ queues and their job payloads. */
export const MEDIA_QUEUES = { poll: 'media-poll', sweep: 'media-sweep' } as const;

export const PollJob = z.object({ taskId: z.string().min(1) });
export type PollJob = z.infer<typeof PollJob>;

export const SweepJob = z.looseObject({});
