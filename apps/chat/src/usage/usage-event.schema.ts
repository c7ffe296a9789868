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
});
export type UsageEvent = z.infer<typeof UsageEvent>;

/** Stream and subject names derived from NATS_PREFIX, so deployments and test runs sharing a server never collide. */
export function usageStreamNames(prefix: string): { stream: string; subject: string; durable: string } {
  const tag = prefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_');
  return { stream: tag ? `USAGE_${tag}` : 'USAGE', subject: `${prefix}chat.usage.recorded`, durable: 'usage-writer' };
}
