import type Redis from 'ioredis';
import type { RedisOptions } from 'ioredis';
import { redisOptions, type RedisTarget } from './redis-env';
import { redisState, type RedisStateLog } from './redis-state-log';
import { RevivingRedis } from './reviving-redis';

/** Reports the client's link to the process's state log (one line lost, one back), instead of an unhandled error per retry. */
export function watchRedis(redis: Redis, name: string, state: RedisStateLog = redisState): Redis {
  redis.on('error', (error) => state.lost(redis, name, error));
  redis.on('ready', () => state.back(redis));
  return redis;
}

/**
 * Every Redis client of the gateway, on the process's Redis settings (one node, or the primary its Sentinels
 * name): fails a command after `maxRetriesPerRequest` reconnect attempts (2 unless said otherwise) so a fault
 * answers 503 quickly, reports its link (see watchRedis), and never stays ended unless closed (RevivingRedis).
 */
export function createRedis(target: RedisTarget, name: string, options: RedisOptions = {}, state?: RedisStateLog): Redis {
  return watchRedis(new RevivingRedis({ ...redisOptions(target), maxRetriesPerRequest: 2, ...options }), name, state);
}
