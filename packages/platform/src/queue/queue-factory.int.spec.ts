import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { z } from 'zod';
import { QueueFactory } from './queue-factory';
import { until } from '../testing/wait';
import { queuePrefix } from './queue-prefix';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('QueueFactory on the real Redis', () => {
  const prefix = queuePrefix('test', `t${randomBytes(4).toString('hex')}.`);
  let factory: QueueFactory;
  let redis: Redis;

  beforeAll(() => {
    factory = new QueueFactory({ redis: REDIS_URL, prefix });
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await factory.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.unlink(...keys);
    redis.disconnect();
  });

  it('names every key of a queue under one hash tag, so one cluster slot holds them', async () => {
    expect(queuePrefix('media', 'run42.')).toBe('{q:run42:media}');
    expect(queuePrefix('media')).toBe('{q:default:media}');
    await factory.queue('tagged').add('job', { n: 1 });
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key) => key.startsWith(`${prefix}:tagged:`))).toBe(true);
  });

  it('parses job data with the schema and retries a failing job with backoff', async () => {
    const seen: number[] = [];
    let failures = 0;
    const done = new Promise<void>((resolve) => {
      factory.worker(
        'retried',
        z.object({ n: z.number() }),
        async (data) => {
          if (failures++ < 1) throw new Error('first try fails');
          seen.push(data.n);
          resolve();
        },
        { concurrency: 1 },
      );
    });
    await factory.queue('retried').add('job', { n: 7 }, { backoff: { type: 'fixed', delay: 50 } });
    await done;
    expect(seen).toEqual([7]);
    expect(failures).toBe(2);
  });

  it('runs a job every interval once however many processes ask, and again after Redis forgets everything', async () => {
    const everyMs = 300;
    const other = new QueueFactory({ redis: REDIS_URL, prefix });
    const runs: number[] = [];
    factory.worker('ticks', z.looseObject({}), async (_data, job) => void runs.push(Number(job.id!.split('-').at(-1))), { concurrency: 1 });
    try {
      factory.every('ticks', everyMs);
      other.every('ticks', everyMs);
      // Counted, not timed: a loaded machine may run an interval late, never twice.
      await until('three runs', () => runs.length >= 3, everyMs * 40);
      // One run per interval: both processes add each interval's job under the same id.
      expect(new Set(runs).size).toBe(runs.length);
      // Redis loses every key of the queue (a restart without its file): later intervals run all the same.
      const keys = await redis.keys(`${prefix}:ticks:*`);
      if (keys.length) await redis.unlink(...keys);
      const before = runs.length;
      await until('two runs after Redis forgot the queue', () => runs.length >= before + 2, everyMs * 40);
    } finally {
      await other.close();
    }
  });
});
