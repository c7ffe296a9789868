import { MEDIA_IMAGE_MAX_WAIT_MS, UrlPolicyAllowHosts } from '@gateway/contracts';
import { BaseEnv, RedisEnv } from '@gateway/platform';
import { z } from 'zod';

/** The chat service's settings, validated at boot; addresses default to this machine. */
export const ChatEnv = BaseEnv.extend({
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/gateway'),
  ...RedisEnv.shape,
  /** How long one upstream attempt may take to start answering before the next channel is tried. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** How long a model's channels stay cached when no invalidation arrives. */
  CATALOG_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  /**
   * How long `POST /oaic/v1/images/generations` with a native-media image model waits for its task before
   * answering upstream_timeout (504); the task goes on and is billed as it ends.
   */
  MEDIA_IMAGE_SYNC_TIMEOUT_MS: z.coerce.number().int().min(1000).max(MEDIA_IMAGE_MAX_WAIT_MS).default(120_000),
  /**
   * How often the run sweeper asks the upstream about assistants runs whose end the gateway has not seen
   * (the client left a stream, or never asked again), to bill them.
   */
  ASSISTANT_RUN_SWEEP_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  /** A run still not ended this long after it started is given up: its hold is released and its usage row says `expired`. */
  ASSISTANT_RUN_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60_000),
  /** What one tenant may store (files, assistants' instructions, threads' messages), in bytes; the files service enforces it on uploads. */
  FILES_TENANT_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 1024 ** 3),
  /** What one tenant's cached answers may hold in Redis; the least recently read go first. */
  CACHE_TENANT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 ** 2),
  /** An answer larger than this is not cached. */
  CACHE_ENTRY_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 ** 2),
  /** Cache entries each chat process follows in memory, so a miss reads no Redis; past it every lookup reads Redis. */
  CACHE_INDEX_MAX_ENTRIES: z.coerce.number().int().nonnegative().default(1_000_000),
  /** Bytes of the most used cached answers each chat process keeps, so a hit on them reads no Redis; 0 keeps none. */
  CACHE_LOCAL_MAX_BYTES: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(16 * 1024 ** 2),
  /** Internal hosts client URLs may point at after all (dev, test), comma-separated: exact names or *.suffix. */
  URL_POLICY_ALLOW_HOSTS: UrlPolicyAllowHosts,
});
export type ChatEnv = z.infer<typeof ChatEnv>;

export const CHAT_ENV = Symbol('CHAT_ENV');
