import { z } from 'zod';

/** The media service's BullMQ queues and their job payloads. */
export const MEDIA_QUEUES = { poll: 'media-poll', sweep: 'media-sweep' } as const;

/** `hint`: polled because the upstream called back; it reads the state but schedules no next poll. */
export const PollJob = z.object({ taskId: z.string().min(1), hint: z.boolean().optional() });
export type PollJob = z.infer<typeof PollJob>;

export const SweepJob = z.looseObject({});
