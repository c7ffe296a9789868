/** Readiness checks of the dependencies a service may have: NATS, PostgreSQL and Redis. */
import type { NatsConnection } from 'nats';
import net from 'node:net';
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

/** Opens a connection, optionally says `hello`, and resolves when the first bytes match `expect` (or on connect without one). */
function probe(url: string, defaultPort: number, hello?: string, expect?: RegExp): ReadinessCheck {
  const { host, port } = hostPort(url, defaultPort);
  return () =>
    new Promise((resolve, reject) => {
      const socket = net.connect({ host, port });
      const done = (error?: Error) => {
        socket.destroy();
        if (error) reject(error);
        else resolve();
      };
      socket.once('error', (error: NodeJS.ErrnoException) => done(new Error(error.code ?? error.message)));
      socket.once('connect', () => {
        if (!hello) return done();
        socket.write(hello);
      });
      socket.once('data', (data) => done(expect?.test(data.toString('utf8')) === false ? new Error('unexpected answer') : undefined));
    });
}

/** PostgreSQL accepts connections at its address (the database itself is the service's own concern). */
export function postgresCheck(databaseUrl: string): ReadinessCheck {
  return probe(databaseUrl, 5432);
}

/** Redis answers PING (or asks for auth, which still means it is up). */
export function redisCheck(redisUrl: string): ReadinessCheck {
  return probe(redisUrl, 6379, 'PING\r\n', /^(\+PONG|-NOAUTH|-ERR)/);
}

/** NATS always; PostgreSQL and Redis when the service is configured with them (DATABASE_URL, REDIS_URL). */
export function dependencyChecks(connection: NatsConnection, env: NodeJS.ProcessEnv): Record<string, ReadinessCheck> {
  const checks: Record<string, ReadinessCheck> = { nats: natsCheck(connection) };
  if (env.DATABASE_URL) checks.postgres = postgresCheck(env.DATABASE_URL);
  if (env.REDIS_URL) checks.redis = redisCheck(env.REDIS_URL);
  return checks;
}
