import { readFileSync } from 'node:fs';
import type { RedisOptions } from 'ioredis';
import { z } from 'zod';
import { EnvError } from '../config/env';

const Flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const Secret = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** `host:port,host:port` → one address each; IPv6 hosts in brackets (`[::1]:26379`). */
const Sentinels = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .regex(/^\s*(\[[0-9a-fA-F:.]+\]|[^\s,:[\]]+):\d{1,5}(\s*,\s*(\[[0-9a-fA-F:.]+\]|[^\s,:[\]]+):\d{1,5})*\s*$/, 'host:port addresses, comma-separated')
    .transform((text) =>
      text.split(',').map((address) => {
        const at = address.trim().lastIndexOf(':');
        return {
          host: address
            .trim()
            .slice(0, at)
            .replace(/^\[|\]$/g, ''),
          port: Number(address.trim().slice(at + 1)),
        };
      }),
    )
    .optional(),
);

/**
 * How every Redis client of a process connects: one node at REDIS_URL (the default), or the primary that
 * REDIS_SENTINELS name for REDIS_SENTINEL_NAME (ioredis follows a failover itself). Credentials and TLS
 * apply to either form; in Sentinel mode REDIS_URL is not used.
 */
export const RedisEnv = z.object({
  REDIS_URL: z.string().min(1).default('redis://127.0.0.1:6379'),
  /** Sentinels to ask for the primary, e.g. `sentinel-0:26379,sentinel-1:26379,sentinel-2:26379`; unset: REDIS_URL. */
  REDIS_SENTINELS: Sentinels,
  /** The primary's name in the Sentinels' configuration (`sentinel monitor <name> …`); required with REDIS_SENTINELS. */
  REDIS_SENTINEL_NAME: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, 'a Sentinel master name')
      .optional(),
  ),
  /** ACL user; over any user in REDIS_URL. */
  REDIS_USERNAME: Secret,
  /** Over any password in REDIS_URL. */
  REDIS_PASSWORD: Secret,
  /** The Sentinels' own password (their default user), when they ask for one. */
  REDIS_SENTINEL_PASSWORD: Secret,
  /** TLS to Redis (and to the Sentinels); a `rediss://` REDIS_URL turns it on too. */
  REDIS_TLS: Flag.default(false),
  /** PEM file of the certificate authority that signed the servers' certificates; unset: the system's. */
  REDIS_TLS_CA_FILE: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
});
export type RedisEnv = z.infer<typeof RedisEnv>;

/** Where a client connects: a process's parsed Redis settings, or a single node's URL (tests, tools). */
export type RedisTarget = RedisEnv | string;

function settingsOf(target: RedisTarget): RedisEnv {
  return typeof target === 'string' ? RedisEnv.parse({ REDIS_URL: target }) : target;
}

/** The node REDIS_URL names, as ioredis options (its own URL parsing is not public). */
function nodeOptions(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EnvError('Invalid environment variable REDIS_URL: not a URL');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new EnvError('Invalid environment variable REDIS_URL: redis:// or rediss://');
  const db = parsed.pathname.replace(/^\//, '');
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: Number(parsed.port || 6379),
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

function tlsOf(settings: RedisEnv): NonNullable<RedisOptions['tls']> {
  if (!settings.REDIS_TLS_CA_FILE) return {};
  try {
    return { ca: readFileSync(settings.REDIS_TLS_CA_FILE) };
  } catch (error) {
    throw new EnvError(`Invalid environment variable REDIS_TLS_CA_FILE: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * The one translation of the Redis settings into ioredis options, used by every client of the gateway
 * (createRedis, the queues, the readiness check). A bad combination stops start-up naming the variable.
 */
export function redisOptions(target: RedisTarget): RedisOptions {
  const settings = settingsOf(target);
  const auth = {
    ...(settings.REDIS_USERNAME ? { username: settings.REDIS_USERNAME } : {}),
    ...(settings.REDIS_PASSWORD ? { password: settings.REDIS_PASSWORD } : {}),
  };
  if (!settings.REDIS_SENTINELS) {
    if (settings.REDIS_SENTINEL_NAME) throw new EnvError('Invalid environment variable REDIS_SENTINELS: required with REDIS_SENTINEL_NAME');
    const node = nodeOptions(settings.REDIS_URL);
    return { ...node, ...auth, ...(settings.REDIS_TLS || node.tls ? { tls: tlsOf(settings) } : {}) };
  }
  if (!settings.REDIS_SENTINEL_NAME) throw new EnvError('Invalid environment variable REDIS_SENTINEL_NAME: required with REDIS_SENTINELS');
  const tls = settings.REDIS_TLS ? tlsOf(settings) : undefined;
  return {
    sentinels: settings.REDIS_SENTINELS,
    name: settings.REDIS_SENTINEL_NAME,
    ...auth,
    ...(settings.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: settings.REDIS_SENTINEL_PASSWORD } : {}),
    ...(tls ? { tls, sentinelTLS: tls, enableTLSForSentinelMode: true } : {}),
    // Sentinel's switch-master message moves the client to a promoted primary at once, not at its next error.
    failoverDetector: true,
  };
}
