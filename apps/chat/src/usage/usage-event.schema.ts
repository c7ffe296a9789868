import { HoldSettlement } from '@gateway/contracts';
import { z } from 'zod';

/** One request's usage as it travels through JetStream to the usage table; requestId makes writes idempotent. */
export const UsageEvent = z.object({
  requestId: z.string().min(1),
  tenantId: z.string().min(1),
  keyId: z.string().min(1),
  modelId: z.string(),
  channelId: z.string().nullable(),
  family: z.string(),
  route: z.string(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  latencyMs: z.number().int().nonnegative(),
  /** ok | upstream_error | error | cancelled */
  outcome: z.string(),
  status: z.number().int(),
  /** ISO time the request started. */
  at: z.string(),
  /** How the request's billing hold ends; absent when nothing was held (billing off). */
  settlement: HoldSettlement.optional(),
});
export type UsageEvent = z.infer<typeof UsageEvent>;

/**
 * One JetStream message: the usage events of the requests a process finished in one turn of its event
 * loop. A message holding a single bare event (an older publisher) is read as a batch of one.
 */
export const UsageBatch = z.union([
  z.object({ events: z.array(UsageEvent).min(1) }),
  UsageEvent.transform((event) => ({ events: [event] })),
]);
export type UsageBatch = z.infer<typeof UsageBatch>;

/** Stream and subject names derived from NATS_PREFIX, so deployments and test runs sharing a server never collide. */
export function usageStreamNames(prefix: string): { stream: string; subject: string; durable: string } {
  const tag = prefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
  return { stream: tag ? `USAGE_${tag}` : 'USAGE', subject: `${prefix}chat.usage.recorded`, durable: 'usage-writer' };
}
