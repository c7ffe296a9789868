import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { queueNamespace } from './queue-prefix';

export interface QueueDepth {
  /** The service the queue belongs to, from its key prefix. */
  role: string;
  queue: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  oldestWaitingSeconds: number | null;
}

/** Keys scanned per SCAN call: a namespace holds a few keys per queue and per job. */
const SCAN_COUNT = 1000;

/**
 * Every BullMQ queue of one namespace (every service's, found by their key prefix), sorted by role and
 * name. The keys of a namespace are scanned once; a queue with no key left (never used, or every job
 * removed) is not listed.
 */
export async function findQueues(redis: Redis, natsPrefix: string): Promise<Array<{ role: string; queue: string }>> {
  const namespace = queueNamespace(natsPrefix);
  const keyShape = new RegExp(`^\\{q:${namespace}:([A-Za-z0-9_-]+)\\}:([^:]+):`);
  const found = new Map<string, { role: string; queue: string }>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `{q:${namespace}:*}:*`, 'COUNT', SCAN_COUNT);
    cursor = next;
    for (const key of keys) {
      const match = keyShape.exec(key);
      if (match) found.set(`${match[1]}\u0000${match[2]}`, { role: match[1]!, queue: match[2]! });
    }
  } while (cursor !== '0');
  return [...found.values()].sort((a, b) => a.role.localeCompare(b.role) || a.queue.localeCompare(b.queue));
}

/** One queue's depth by state, read with BullMQ over a connection the caller owns (not closed here). */
export async function readQueueDepth(redis: Redis, natsPrefix: string, role: string, name: string, now = Date.now()): Promise<QueueDepth> {
  const queue = new Queue(name, { connection: redis, prefix: `{q:${queueNamespace(natsPrefix)}:${role}}` });
  try {
    const counts = await queue.getJobCounts('waiting', 'paused', 'prioritized', 'active', 'delayed', 'failed');
    const [oldest] = await queue.getJobs(['waiting'], 0, 0, true);
    return {
      role,
      queue: name,
      waiting: (counts.waiting ?? 0) + (counts.paused ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
      oldestWaitingSeconds: oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : null,
    };
  } finally {
    await queue.close();
  }
}
