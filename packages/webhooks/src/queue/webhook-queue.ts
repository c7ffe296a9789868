import { QueueFactory, queuePrefix, type RedisTarget } from '@gateway/platform';
import { z } from 'zod';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

/** Job data: the delivery to attempt and its subject; everything else is read from Postgres when the job runs. */
export const WebhookJob = z.object({ deliveryId: z.string().min(1), subjectId: z.string().min(1) });
export type WebhookJob = z.infer<typeof WebhookJob>;

/**
 * The queues of webhook delivery in one namespace (from NATS_PREFIX), under their own hash tag; a
 * delivery is a few short Redis scripts, so the commands of one event-loop turn share a socket write.
 */
export function createWebhookQueues(redis: RedisTarget, natsPrefix: string): QueueFactory {
  return new QueueFactory({ redis, prefix: queuePrefix('webhooks', natsPrefix), autoPipelining: true });
}
