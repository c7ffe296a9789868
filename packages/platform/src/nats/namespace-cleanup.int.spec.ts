import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { connect, StorageType, type NatsConnection } from 'nats';
import { removeNamespace } from './namespace-cleanup';

describe('removeNamespace on the shared NATS and Redis servers', () => {
  const natsUrl = 'nats://127.0.0.1:4222';
  const redisUrl = 'redis://127.0.0.1:6379';
  let nc: NatsConnection;
  let redis: Redis;

  beforeAll(async () => {
    nc = await connect({ servers: natsUrl });
    redis = new Redis(redisUrl);
  });

  afterAll(async () => {
    await nc.close();
    redis.disconnect();
  });

  it("deletes only the run's own streams and keys", async () => {
    const mine = `t${randomBytes(4).toString('hex')}`;
    const other = `t${randomBytes(4).toString('hex')}`;
    const jsm = await nc.jetstreamManager();
    for (const ns of [mine, other]) {
      await jsm.streams.add({ name: `USAGE_${ns}`, subjects: [`${ns}.chat.usage.recorded`], storage: StorageType.Memory });
      await redis.set(`{bill:${ns}}:bal:x`, '1');
      await redis.set(`${ns}.claim:r1`, '{}');
    }

    const removed = await removeNamespace({ natsUrl, redisUrl, prefix: `${mine}.` });

    expect(removed).toEqual({ streams: 1, keys: 2 });
    await expect(jsm.streams.info(`USAGE_${mine}`)).rejects.toBeDefined();
    await expect(jsm.streams.info(`USAGE_${other}`)).resolves.toBeDefined();
    expect(await redis.exists(`{bill:${other}}:bal:x`, `${other}.claim:r1`)).toBe(2);
    await removeNamespace({ natsUrl, redisUrl, prefix: `${other}.` });
    expect(await redis.exists(`{bill:${other}}:bal:x`)).toBe(0);
  });

  it('refuses the shared, unprefixed namespace', async () => {
    await expect(removeNamespace({ natsUrl, redisUrl, prefix: '' })).rejects.toThrow('unprefixed');
  });
});
