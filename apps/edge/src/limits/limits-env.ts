import { RedisEnv } from '@gateway/platform';

/** Settings of rate limiting at the edge; counters live in the Redis every edge replica shares. */
export const LimitsEnv = RedisEnv;
export type LimitsEnv = RedisEnv;
