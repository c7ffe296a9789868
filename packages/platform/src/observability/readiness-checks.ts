/** Readiness checks of the dependencies a service may have: NATS, PostgreSQL and Redis. */
import type Redis from 'ioredis';
import type { NatsConnection } from 'nats';
import net from 'node:net';
import { loadEnv } from '../config/env';
import { createRedis } from '../redis/create-redis';
import { RedisEnv, type RedisTarget } from '../redis/redis-env';
import type { ReadinessCheck } from './ops-server';

/** NATS answers a round trip on this connection. */
export function natsCheck(connection: NatsConnection): ReadinessCheck {
  return async () => {
    if (connection.isClosed()) throw new Error('connection closed');
    await connection.flush();
  };
}

function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url.split(',')[0]!.trim());
  return { host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}

/** Resolves when a connection to the address opens. */
function probe(url: string, defaultPort: number): ReadinessCheck {
  const { host, port } = hostPort(url, defaultPort);
  return () =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      socket.once('error', (error: NodeJS.ErrnoException) => {
        socket.destroy();
        reject(new Error(error.code ?? error.message));
      });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
    });
}

/** PostgreSQL accepts connections at its address (the database itself is the service's own concern). */
export function postgresCheck(databaseUrl: string): ReadinessCheck {
  return probe(databaseUrl, 5432);
}

/**
 * The Redis primary answers PING, reached as every client reaches it (Sentinel, credentials, TLS) on one
 * client of the check's own, opened at the first check; a PING while that client has no link fails at once.
 */
export function redisCheck(target: RedisTarget): ReadinessCheck {
  let client: Redis | undefined;
  return async () => {
    client ??= createRedis(target, 'readiness', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    if (client.status === 'wait') await client.connect();
    await client.ping();
  };
}

/** NATS always; PostgreSQL and Redis when the service is configured with them (DATABASE_URL, REDIS_URL or REDIS_SENTINELS). */
export function dependencyChecks(connection: NatsConnection, env: NodeJS.ProcessEnv): Record<string, ReadinessCheck> {
  const checks: Record<string, ReadinessCheck> = { nats: natsCheck(connection) };
  if (env.DATABASE_URL) checks.postgres = postgresCheck(env.DATABASE_URL);
  if (env.REDIS_URL || env.REDIS_SENTINELS) checks.redis = redisCheck(loadEnv(RedisEnv, env));
  return checks;
}
