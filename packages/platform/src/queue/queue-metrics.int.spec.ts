import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { z } from 'zod';
import { scrapeMetrics } from '../observability/metrics';
import { QueueFactory } from './queue-factory';
import { queuePrefix } from './queue-prefix';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('queue series of the QueueFactory', () => {
  const prefix = queuePrefix('metrics', `t${randomBytes(4).toString('hex')}.`);
  const factory = new QueueFactory({ redis: REDIS_URL, prefix, defaultJobOptions: { attempts: 1 } });
  const redis = new Redis(REDIS_URL);

  afterAll(async () => {
    await factory.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.unlink(...keys);
    redis.disconnect();
  });

  it('reports depth by state and the oldest waiting job age at each scrape, and counts failed attempts', async () => {
    const queue = factory.queue('metered');
    await queue.add('a', { n: 1 }, { timestamp: Date.now() - 5000 });
    await queue.add('b', { n: 2 });
    await queue.add('c', { n: 3 }, { delay: 60_000 });
    const text = await scrapeMetrics();
    expect(text).toContain('gateway_queue_depth{queue="metered",state="waiting"} 2');
    expect(text).toContain('gateway_queue_depth{queue="metered",state="delayed"} 1');
    const age = Number(/gateway_queue_oldest_job_age_seconds\{queue="metered"\} ([\d.]+)/.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(5);

    const failed = new Promise<void>((resolve) => {
      const worker = factory.worker('metered', z.object({ n: z.number() }), async () => {
        throw new Error('refused');
      });
      let seen = 0;
      worker.on('failed', () => ++seen === 2 && resolve());
    });
    await failed;
    expect(await scrapeMetrics()).toContain('gateway_queue_job_failures_total{queue="metered"} 2');
  });
});
