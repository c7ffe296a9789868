import { BaseEnv, RedisEnv } from '@gateway/platform';
import { z } from 'zod';

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** The files service's settings, validated at boot; addresses default to this machine. */
export const FilesEnv = BaseEnv.extend({
  DATABASE_URL: z.string().min(1).default('postgresql://postgres@127.0.0.1:5432/gateway'),
  ...RedisEnv.shape,
  /** `api` answers NATS (records, batch creation), `worker` runs batches, `all` does both. */
  FILES_ROLE: z.enum(['api', 'worker', 'all'], { error: 'FILES_ROLE must be api, worker or all' }).default('all'),
  /** Lines of one batch in flight at once. */
  BATCH_CONCURRENCY: positive(8),
  /** Lines of one tenant's batches in flight at once, over every worker. */
  BATCH_TENANT_CONCURRENCY: positive(16),
  /** Batches one worker process runs at once. */
  BATCH_WORKER_BATCHES: positive(4),
  /** How long a batch job's lock lives unrenewed: a killed worker's batch resumes elsewhere after about this long. */
  BATCH_LOCK_MS: positive(30_000),
  /** Longest one line's call to the chat service may take. */
  BATCH_LINE_TIMEOUT_MS: positive(600_000),
  /** What one tenant may store: uploaded files, assistants' instructions and threads' messages, in bytes (10 GiB). */
  FILES_TENANT_QUOTA_BYTES: positive(10 * 1024 ** 3),
  /** How long a line-by-line batch line refused for the tenant's balance waits for the tenant's other holds to end before it fails. */
  BATCH_FUNDS_WAIT_MS: positive(120_000),
  /** How often a native batch's upstream is polled; polls an upstream refused (429, 5xx) back off from here. */
  NATIVE_BATCH_POLL_MS: positive(5_000),
  /** The longest wait between two polls of a native batch, however often its upstream refused. */
  NATIVE_BATCH_POLL_MAX_MS: positive(300_000),
  /** Longest one call to a native batch's upstream may take (an upload of the whole input file included). */
  NATIVE_BATCH_UPSTREAM_TIMEOUT_MS: positive(600_000),
});
export type FilesEnv = z.infer<typeof FilesEnv>;

export const FILES_ENV = Symbol('FILES_ENV');

export const runsApi = (env: FilesEnv): boolean => env.FILES_ROLE !== 'worker';
export const runsWorker = (env: FilesEnv): boolean => env.FILES_ROLE !== 'api';
