import { UrlPolicyAllowHosts } from '@gateway/contracts';
import { BaseEnv, RedisEnv } from '@gateway/platform';
import { z } from 'zod';

/** The media service's settings, validated at boot; addresses default to this machine. */
export const MediaEnv = BaseEnv.extend({
  /** api: NATS handlers (validate, hold, submit, record); worker: BullMQ polls, ingestion, sweeps; all: both. */
  MEDIA_ROLE: z.enum(['api', 'worker', 'all']).default('all'),
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/gateway'),
  ...RedisEnv.shape,
  /** How often a running task's upstream is asked for news. */
  MEDIA_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  /** The longest wait between polls after upstream 429s or 5xx (backoff doubles up to it). */
  MEDIA_POLL_MAX_BACKOFF_MS: z.coerce.number().int().min(100).default(30_000),
  /** Between safety-net polls of a task whose upstream calls back when it ends (a channel with `callbacks`). */
  MEDIA_CALLBACK_POLL_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * The origin upstreams reach the gateway's edge on, for the callback URLs of channels with `callbacks`
   * (e.g. https://api.example.com). Unset: no callback URL is given, and those channels are polled.
   */
  PUBLIC_BASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
  /** A task not finished this long after creation fails (and its hold is released). */
  MEDIA_TASK_DEADLINE_SECONDS: z.coerce.number().int().positive().default(1800),
  MEDIA_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).default(5000),
  /** Poll and ingest jobs one worker process runs at once. */
  MEDIA_WORKER_CONCURRENCY: z.coerce.number().int().positive().default(64),
  /** A job held by a worker that died is given to another after about this long. */
  MEDIA_JOB_LOCK_MS: z.coerce.number().int().min(1000).default(15_000),
  MEDIA_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** The largest generated file stored. */
  MEDIA_MAX_ASSET_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  /** Postgres connections of one process: a worker's polls each read and write their task's row. */
  MEDIA_DB_POOL_SIZE: z.coerce.number().int().positive().default(24),
  CATALOG_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  URL_POLICY_ALLOW_HOSTS: UrlPolicyAllowHosts,
});
export type MediaEnv = z.infer<typeof MediaEnv>;

export const MEDIA_ENV = Symbol('MEDIA_ENV');
