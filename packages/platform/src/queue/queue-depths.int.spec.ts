import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { QueueFactory } from './queue-factory';
import { findQueues, readQueueDepth } from './queue-depths';
import { queuePrefix } from './queue-prefix';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('queue depths read from Redis', () => {
  const natsPrefix = `t${randomBytes(4).toString('hex')}.`;
  const media = new QueueFactory({ redis: REDIS_URL, prefix: queuePrefix('media', natsPrefix), defaultJobOptions: { attempts: 1 } });
  const music = new QueueFactory({ redis: REDIS_URL, prefix: queuePrefix('music', natsPrefix) });
  const other = new QueueFactory({ redis: REDIS_URL, prefix: queuePrefix('media', `u${randomBytes(4).toString('hex')}.`) });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });

  afterAll(async () => {
    await Promise.all([media.close(), music.close(), other.close()]);
    for (const prefix of [media.prefix, music.prefix, other.prefix]) {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.unlink(...keys);
    }
    redis.disconnect();
  });

  it("finds every service's queues of one namespace and counts their jobs by state", async () => {
    await media.queue('render').add('a', { n: 1 }, { timestamp: Date.now() - 4000 });
    await media.queue('render').add('b', { n: 2 });
    await media.queue('render').add('c', { n: 3 }, { delay: 60_000 });
    await music.queue('poll').add('d', { n: 4 }, { delay: 60_000 });
    await other.queue('render').add('e', { n: 5 });

    expect(await findQueues(redis, natsPrefix)).toEqual([
      { role: 'media', queue: 'render' },
      { role: 'music', queue: 'poll' },
    ]);
    const render = await readQueueDepth(redis, natsPrefix, 'media', 'render');
    expect(render).toMatchObject({ role: 'media', queue: 'render', waiting: 2, active: 0, delayed: 1, failed: 0 });
    expect(render.oldestWaitingSeconds).toBeGreaterThanOrEqual(4);
    expect(await readQueueDepth(redis, natsPrefix, 'music', 'poll')).toEqual({
      role: 'music',
      queue: 'poll',
      waiting: 0,
      active: 0,
      delayed: 1,
      failed: 0,
      oldestWaitingSeconds: null,
    });
    // The caller's connection stays open for the next read.
    expect(redis.status).toBe('ready');
  });
});
