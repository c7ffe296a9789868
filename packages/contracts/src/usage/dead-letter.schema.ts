import { z } from 'zod';
import { SUBJECTS } from '../nats/subjects';

/**
 * Dead letters: records a durable consumer could not write after its last attempt (a value Postgres
 * refuses), kept in one JetStream stream with the error, so that good records behind them go on and
 * an operator can list them and, once the cause is fixed, replay them to where they came from.
 */
export const DEAD_LETTER_CONSUMERS = ['usage', 'ledger'] as const;
export const DeadLetterConsumer = z.enum(DEAD_LETTER_CONSUMERS);
export type DeadLetterConsumer = z.infer<typeof DeadLetterConsumer>;

/** Deliveries of one record (the first included) before it is dead-lettered. */
export const DEAD_LETTER_MAX_DELIVERIES = 5;

/** How long a dead letter is kept when nobody replays it. */
export const DEAD_LETTER_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** The dead-letter stream and its subjects, under NATS_PREFIX like the usage stream's names. */
export function deadLetterStreamNames(prefix: string): { stream: string; subjects: string; subject: (consumer: DeadLetterConsumer) => string } {
  const tag = prefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
  return {
    stream: tag ? `DEAD_LETTERS_${tag}` : 'DEAD_LETTERS',
    subjects: `${prefix}${SUBJECTS.accounts.deadLetter.all}`,
    subject: (consumer) => `${prefix}${SUBJECTS.accounts.deadLetter.of(consumer)}`,
  };
}

/** One dead letter as stored. */
export const DeadLetter = z.object({
  consumer: DeadLetterConsumer,
  /** Where the record was read: the JetStream stream or the Redis stream key. */
  source: z.string(),
  error: z.string(),
  deliveries: z.number().int().nonnegative(),
  /** ISO time it was dead-lettered. */
  at: z.string(),
  /** The record as it was read, JSON text: what a replay puts back. */
  payload: z.string(),
});
export type DeadLetter = z.infer<typeof DeadLetter>;

export const DeadLetterListRequest = z
  .object({
    consumer: DeadLetterConsumer.optional(),
    limit: z.coerce.number().int().positive().max(1000).default(100),
  })
  .strict();
export type DeadLetterListRequest = z.infer<typeof DeadLetterListRequest>;

export const DeadLetterView = z.object({
  /** The dead letter's sequence in its stream. */
  id: z.string(),
  consumer: DeadLetterConsumer,
  source: z.string(),
  error: z.string(),
  deliveries: z.number().int(),
  at: z.string(),
  /** The start of the payload, control characters escaped. */
  preview: z.string(),
});
export type DeadLetterView = z.infer<typeof DeadLetterView>;

const PerConsumer = z.object({ usage: z.number().int().nonnegative(), ledger: z.number().int().nonnegative() });

export const DeadLetterList = z.object({
  data: z.array(DeadLetterView),
  /** Dead letters stored now, per consumer. */
  stored: PerConsumer,
  /** Records dead-lettered by the answering accounts replica since it started, per consumer. */
  deadLettered: PerConsumer,
});
export type DeadLetterList = z.infer<typeof DeadLetterList>;

export const DeadLetterReplayRequest = z
  .object({
    ids: z
      .array(z.string().regex(/^[1-9]\d{0,14}$/, 'expected a dead letter id (a positive integer)'))
      .min(1)
      .optional(),
    all: z.literal(true).optional(),
  })
  .strict()
  .refine((request) => (request.ids === undefined) !== (request.all === undefined), { message: 'give either ids or all', path: ['ids'] });
export type DeadLetterReplayRequest = z.infer<typeof DeadLetterReplayRequest>;

export const DeadLetterReplayReply = z.object({
  replayed: z.array(z.string()),
  /** Ids asked for that are not (or no longer) stored. */
  missing: z.array(z.string()),
});
export type DeadLetterReplayReply = z.infer<typeof DeadLetterReplayReply>;
