import { Queue, type ConnectionOptions } from 'bullmq';

export const WEBHOOK_QUEUE = 'webhook-deliveries';

/** Job data: the delivery to attempt; everything else is read from Postgres when the job runs. */
export interface WebhookJob {
  deliveryId: string;
}

/**
 * The BullMQ prefix of one namespace (from NATS_PREFIX), in a hash tag so every key of the queue
 * lands in one Redis Cluster slot.
 */
export function webhookQueuePrefix(natsPrefix: string): string {
  return `{wh:${natsPrefix.replace(/\.$/, '').replace(/[^A-Za-z0-9_-]/g, '_') || 'default'}}`;
}

/** Redis connection settings from a URL, as BullMQ takes them (blocking workers need no retry limit). */
export function redisConnection(url: string): ConnectionOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username || undefined,
    password: parsed.password || undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    maxRetriesPerRequest: null,
  };
}

export function createWebhookQueue(redisUrl: string, natsPrefix: string): Queue<WebhookJob> {
  return new Queue<WebhookJob>(WEBHOOK_QUEUE, { connection: redisConnection(redisUrl), prefix: webhookQueuePrefix(natsPrefix) });
}
