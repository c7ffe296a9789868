import { RedisEnv } from '@gateway/platform';
import { z } from 'zod';

/** Settings of the oaic relay; the storage settings come from @gateway/storage's StorageEnv. */
export const OaicEnv = z.object({
  ...RedisEnv.shape,
  /** Bodies larger than this go by claim check (NATS's default max_payload is 1 MB). */
  CLAIM_CHECK_MIN_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024),
  CLAIM_CHECK_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  /** Longest a non-streamed chat call may take end to end. */
  CHAT_TIMEOUT_MS: z.coerce.number().int().positive().default(600_000),
});
export type OaicEnv = z.infer<typeof OaicEnv>;

export const OAIC_ENV = Symbol('OAIC_ENV');
export const OAIC_OBJECT_STORE = Symbol('OAIC_OBJECT_STORE');
export const OAIC_REDIS = Symbol('OAIC_REDIS');
