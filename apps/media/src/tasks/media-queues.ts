import { z } from 'zod';
import { PollPlan } from '../schedule/poll-plan';

/** The media service's BullMQ queues and their job payloads. */
export const MEDIA_QUEUES = { poll: 'media-poll', sweep: 'media-sweep' } as const;

/**
 * `hint`: polled because the upstream called back; it reads the state but schedules no next poll.
 * `plan`: the task's schedule, made at its create and carried from poll to poll; null: none, as no task
 * like it had ended then (the plain interval, kept); absent: planned anew at the poll.
 */
export const PollJob = z.object({ taskId: z.string().min(1), hint: z.boolean().optional(), plan: PollPlan.nullable().optional() });
export type PollJob = z.infer<typeof PollJob>;

export const SweepJob = z.looseObject({});
