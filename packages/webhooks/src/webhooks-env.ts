import { RedisEnv } from '@gateway/platform';
import { z } from 'zod';
import type { DestinationSettings } from './delivery/destination-policy';

const Flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const Millis = z.coerce.number().int().positive();
const PortList = z
  .string()
  .regex(/^\s*\d{1,5}(\s*,\s*\d{1,5})*\s*$/, 'a comma-separated list of ports')
  .transform((text) => new Set(text.split(',').map((port) => Number(port.trim()))));

/** Settings of outbound webhook delivery, validated at boot by the service that hosts the workers. */
export const WebhooksEnv = z.object({
  ...RedisEnv.shape,
  /** Attempt n (from 0) waits about base × 2^n, ± a fifth of jitter, never more than WEBHOOK_RETRY_MAX_MS. */
  WEBHOOK_RETRY_BASE_MS: Millis.default(2_000),
  WEBHOOK_RETRY_MAX_MS: Millis.default(3_600_000),
  /** Attempts before a delivery is dead-lettered; 35 at the defaults spans about 24 hours. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(35),
  /** A receiver that has not answered within this long counts as a failed attempt. */
  WEBHOOK_TIMEOUT_MS: Millis.default(10_000),
  /** Development and tests only: callback URLs may be plain HTTP and point at loopback addresses. */
  WEBHOOK_ALLOW_PRIVATE: Flag.default(false),
  /**
   * The ports the gateway listens on (every edge's public and admin port, every metrics port); a callback to
   * one of them on this machine is refused even with WEBHOOK_ALLOW_PRIVATE. `npm start` sets every port of its stack.
   */
  GATEWAY_LISTENER_PORTS: PortList.default(new Set([8080, 8081])),
  /** How long a rotated-out secret keeps signing beside the new one. */
  WEBHOOK_SECRET_GRACE_SECONDS: z.coerce.number().int().min(0).default(86_400),
  /**
   * Deliveries one worker process has in flight at once (BullMQ concurrency, and connections per receiver
   * origin). A delivery is I/O-bound: a receiver that does not answer holds one slot for WEBHOOK_TIMEOUT_MS.
   */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(2000).default(256),
  /**
   * Of those slots, how many one receiver origin may hold at once: a receiver that never answers keeps at
   * most this many busy, and its other deliveries wait without a slot (WEBHOOK_DEFER_MS at a time).
   */
  WEBHOOK_RECEIVER_CONCURRENCY: z.coerce.number().int().min(1).max(2000).default(16),
  /** Of those slots, how many one tenant's deliveries may hold at once (whatever their receivers). */
  WEBHOOK_TENANT_CONCURRENCY: z.coerce.number().int().min(1).max(2000).default(64),
  /** How long a delivery whose receiver's or tenant's share is full waits before it is tried again (± a fifth). */
  WEBHOOK_DEFER_MS: Millis.default(500),
  /**
   * How long a delivery whose share is full waits in its worker for a slot of that share before it is
   * deferred: a busy receiver's deliveries follow each other at once, one that never answers costs this.
   */
  WEBHOOK_SLOT_WAIT_MS: z.coerce.number().int().nonnegative().default(100),
  /** Postgres connections of the delivery path (outbox writes, heads, attempts), apart from the host's own pool. */
  WEBHOOK_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(16),
  /**
   * How often the worker role looks for deliveries recorded but never queued (the enqueue after the outbox's
   * insert failed) or whose job ended without moving them, and queues them; one due this long is taken up.
   */
  WEBHOOK_SWEEP_MS: Millis.default(30_000),
  /** A delivery whose worker died is taken up again after this long (BullMQ lock duration). */
  WEBHOOK_LOCK_MS: Millis.default(30_000),
});
export type WebhooksEnv = z.infer<typeof WebhooksEnv>;

/** Where deliveries may go: the environment's flag, and the gateway's own ports (the listed ones, the public base URL's, this process's metrics port). */
export function destinationSettingsOf(
  env: Pick<WebhooksEnv, 'WEBHOOK_ALLOW_PRIVATE' | 'GATEWAY_LISTENER_PORTS'> & { PUBLIC_BASE_URL?: string; METRICS_PORT?: number },
): DestinationSettings {
  const ownPorts = new Set(env.GATEWAY_LISTENER_PORTS);
  if (env.METRICS_PORT) ownPorts.add(env.METRICS_PORT);
  if (env.PUBLIC_BASE_URL) {
    const base = new URL(env.PUBLIC_BASE_URL);
    ownPorts.add(base.port ? Number(base.port) : base.protocol === 'https:' ? 443 : 80);
  }
  return { allowPrivate: env.WEBHOOK_ALLOW_PRIVATE, ownPorts };
}
