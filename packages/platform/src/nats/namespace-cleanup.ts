import { createRedis } from '../redis/create-redis';
import { connect } from 'nats';
import { natsServersOf } from './connect';

export interface NamespaceLocation {
  natsUrl: string;
  redisUrl: string;
  /** The NATS_PREFIX of a finished run, e.g. "t1a2b3.". Never empty: a shared namespace is never removed. */
  prefix: string;
}

/**
 * Removes what a finished test or bench run left on the shared servers: the JetStream streams whose
 * subjects all live under its prefix, and the Redis keys tagged with its namespace. Services create
 * these on start; only ephemeral runs (own prefix) call this when they stop.
 */
export async function removeNamespace({ natsUrl, redisUrl, prefix }: NamespaceLocation): Promise<{ streams: number; keys: number }> {
  if (!prefix) throw new Error('refusing to remove the unprefixed namespace');
  const nc = await connect({ servers: natsServersOf(natsUrl), name: 'namespace-cleanup' });
  let streams = 0;
  try {
    const jsm = await nc.jetstreamManager();
    for await (const info of jsm.streams.list()) {
      const subjects = info.config.subjects ?? [];
      if (subjects.length > 0 && subjects.every((s) => s.startsWith(prefix))) {
        await jsm.streams.delete(info.config.name);
        streams++;
      }
    }
  } finally {
    await nc.close();
  }
  const namespace = prefix.replace(/\.$/, '');
  const redis = createRedis(redisUrl, 'cleanup', { lazyConnect: true });
  let keys = 0;
  try {
    await redis.connect();
    for (const pattern of [`{bill:${namespace}}*`, `{rl:${namespace}:*`, `{q:${namespace}:*`, `${prefix}*`]) {
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
        cursor = next;
        if (found.length) keys += await redis.unlink(...found);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
  return { streams, keys };
}
