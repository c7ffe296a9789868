import { UrlPolicyAllowHosts } from '@gateway/contracts';
import { BaseEnv, RedisEnv } from '@gateway/platform';
import { WebhooksEnv } from '@gateway/webhooks';
import { z } from 'zod';

/** The music service's settings (with those of its webhook deliveries), validated at boot; addresses default to this machine. */
export const MusicEnv = BaseEnv.extend({
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/gateway'),
  /** Postgres connections of the service's own pool (tasks, callbacks); webhook deliveries have theirs (WEBHOOK_DB_POOL_SIZE). */
  MUSIC_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  ...RedisEnv.shape,
  /** The gateway's public origin: upstreams call back under it, and result links are built on it. */
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:8080'),
  /** `api` answers NATS, `worker` runs the pollers and webhook deliveries, `all` both. */
  MUSIC_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  /** How often a task's upstream is asked where it stands, in case its callbacks are late or never come. */
  MUSIC_POLL_INTERVAL_MS: z.coerce.number().int().positive().default(15_000),
  /** How long a poll job's lock lives without renewal: a worker killed mid-poll gives its task back after about this long. */
  MUSIC_JOB_LOCK_MS: z.coerce.number().int().min(1000).default(15_000),
  /** A task not finished by then fails (GENERATE_AUDIO_FAILED) and its hold is released. */
  MUSIC_TASK_DEADLINE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 60_000),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  CATALOG_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  URL_POLICY_ALLOW_HOSTS: UrlPolicyAllowHosts,
}).extend(WebhooksEnv.shape);
export type MusicEnv = z.infer<typeof MusicEnv>;

export const MUSIC_ENV = Symbol('MUSIC_ENV');
