import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { loadEnv } from '../config/env';
import { redisCheck } from '../observability/readiness-checks';
import { QueueFactory } from '../queue/queue-factory';
import { queuePrefix } from '../queue/queue-prefix';
import { startRedisSentinelCluster, type RedisSentinelCluster } from '../testing/redis-sentinel-cluster';
import { createRedis } from './create-redis';
import { RedisEnv } from './redis-env';
import { RedisStateLog } from './redis-state-log';
import { retrying } from '../testing/wait';

describe('Redis with Sentinel', () => {
  let cluster: RedisSentinelCluster;
  let env: RedisEnv;
  let redis: Redis;
  let queues: QueueFactory;
  const lines: string[] = [];
  const state = new RedisStateLog((line) => lines.push(line));

  beforeAll(async () => {
    cluster = await startRedisSentinelCluster({ password: 'sentinel-spec' });
    env = loadEnv(RedisEnv, { REDIS_SENTINELS: cluster.sentinels, REDIS_SENTINEL_NAME: cluster.name, REDIS_PASSWORD: 'sentinel-spec' });
    redis = createRedis(env, 'spec', {}, state);
    queues = new QueueFactory({ redis: env, prefix: queuePrefix('spec', `s${randomBytes(4).toString('hex')}.`), state });
  }, 90_000);

  afterAll(async () => {
    await queues?.close();
    redis?.disconnect();
    await cluster?.stop();
  });

  it('reaches the primary through the Sentinels with the password, and carries on on the promoted replica', async () => {
    const primary = await cluster.primaryPort();
    expect(primary).toBe(cluster.ports[0]);
    await redis.set('spec:before', 'kept');
    // Written to the replica too before the kill: what asynchronous replication may lose is the wallet spec's.
    expect(await redis.wait(1, 5000)).toBe(1);
    const queue = queues.queue('failover');
    await queue.add('before', { n: 1 });
    const ready = redisCheck(env);
    await expect(ready()).resolves.toBeUndefined();

    await cluster.kill(primary);
    const promoted = await cluster.promoted(primary);
    expect(promoted).toBe(cluster.ports[1]);

    await retrying(() => redis.set('spec:after', 'written'), 60_000);
    expect(await redis.get('spec:before')).toBe('kept');
    const node = cluster.node(promoted);
    try {
      expect(await node.get('spec:after')).toBe('written');
    } finally {
      node.disconnect();
    }
    await retrying(() => queue.add('after', { n: 2 }), 60_000);
    expect(await queue.getJobCounts('waiting')).toMatchObject({ waiting: 2 });
    await retrying(() => ready(), 60_000);
    // The outage is two lines of the state log, not one per retry.
    expect(lines.length).toBeLessThanOrEqual(2);
  }, 120_000);
});
