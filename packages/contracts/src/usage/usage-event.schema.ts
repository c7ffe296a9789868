import { z } from 'zod';
import { HoldSettlement, LeaseClose } from '../billing/billing.schema';
import { SUBJECTS } from '../nats/subjects';
import { UsageKind } from './usage-kind';

/** One request's usage as it travels from chat through JetStream to the usage table; requestId makes writes idempotent. */
export const UsageEvent = z.object({
  requestId: z.string().min(1),
  /** The client's own x-request-id, kept so an operator can find the row by the id the client logged. */
  clientRequestId: z.string().min(1).max(128).optional(),
  tenantId: z.string().min(1),
  keyId: z.string().min(1),
  modelId: z.string(),
  channelId: z.string().nullable(),
  family: z.string(),
  route: z.string(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  /** Of the prompt tokens, those read from and written to the upstream's prompt cache (priced apart where the catalog says). */
  cachedTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  /** Seconds of media metered (audio priced per second); absent for token-metered requests. */
  seconds: z.number().nonnegative().optional(),
  latencyMs: z.number().int().nonnegative(),
  /** ok | cache_hit | upstream_error | error | cancelled | reply_lost */
  outcome: z.string(),
  status: z.number().int(),
  /** ISO time the request started. */
  at: z.string(),
  /** What the record bills; read from the route and ids when absent (see usageKindOf). */
  kind: UsageKind.optional(),
  /** The task, batch or run the record belongs to (a batch line's batch is read from its ids when absent). */
  subjectId: z.string().min(1).max(128).optional(),
  /** Images and tasks produced (media and music tasks). */
  images: z.number().int().nonnegative().optional(),
  tasks: z.number().int().nonnegative().optional(),
  /** What the record's settlement charged in micro-units, when its publisher ended the hold itself (tasks). */
  costMicros: z.string().regex(/^\d+$/).optional(),
  /** How the request's billing hold ends; absent when nothing was held (billing off). */
  settlement: HoldSettlement.optional(),
});
export type UsageEvent = z.infer<typeof UsageEvent>;

/**
 * One JetStream message: the usage events of the requests a process finished in one turn of its event
 * loop, then the billing leases that closed with them (applied after the events' draws). A message
 * holding a single bare event (an older publisher) is read as a batch of one.
 */
export const UsageBatch = z.union([
  z.object({ events: z.array(UsageEvent), closes: z.array(LeaseClose).default([]) }),
  UsageEvent.transform((event) => ({ events: [event], closes: [] as LeaseClose[] })),
]);
export type UsageBatch = z.infer<typeof UsageBatch>;

/** Stream and subject names derived from NATS_PREFIX, so deployments and test runs sharing a server never collide. */
export function usageStreamNames(prefix: string): { stream: string; subject: string; durable: string } {
  const tag = prefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
  return { stream: tag ? `USAGE_${tag}` : 'USAGE', subject: `${prefix}${SUBJECTS.chat.usageRecorded}`, durable: 'usage-writer' };
}

/** How long unconsumed usage events are kept (the writer was down that long). */
export const USAGE_RETENTION_MS = 7 * 24 * 3600 * 1000;
