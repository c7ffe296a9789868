/** Checks that Postgres, Redis and NATS answer before anything is started, naming the one that does not. */
import net from 'node:net';
import pg from 'pg';
import { CliError } from '../cli-error';

export const START_COMMANDS = {
  PostgreSQL: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  Redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
  NATS: 'nats-server -js -a 127.0.0.1 -p 4222 &',
} as const;

export interface InfraTargets {
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
}

const TIMEOUT_MS = 3000;

async function checkPostgres(databaseUrl: string): Promise<void> {
  // The server, not the database: the database may not exist until migrate creates it.
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Opens a TCP connection, optionally writes `hello`, and resolves when the first bytes match `expect`. */
function probeTcp(host: string, port: number, expect: RegExp, hello?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setTimeout(TIMEOUT_MS, () => fail(new Error('timed out')));
    socket.once('error', fail);
    socket.once('close', () => reject(new Error('closed without a greeting')));
    socket.once('connect', () => hello && socket.write(hello));
    socket.once('data', (data) => {
      socket.destroy();
      if (expect.test(data.toString('utf8'))) resolve();
      else reject(new Error(`unexpected greeting "${data.toString('utf8').slice(0, 40).trim()}"`));
    });
  });
}

function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const parsed = new URL(url.split(',')[0]!.trim());
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || defaultPort) };
}

export type InfraName = keyof typeof START_COMMANDS;

export interface InfraProbe {
  name: InfraName;
  /** host:port */
  where: string;
  host: string;
  port: number;
  check(): Promise<void>;
}

export function infraProbes(targets: InfraTargets): InfraProbe[] {
  const postgres = hostPort(targets.databaseUrl, 5432);
  const redis = hostPort(targets.redisUrl, 6379);
  const nats = hostPort(targets.natsUrl, 4222);
  return [
    { name: 'PostgreSQL', where: new URL(targets.databaseUrl).host, ...postgres, check: () => checkPostgres(targets.databaseUrl) },
    { name: 'Redis', where: `${redis.host}:${redis.port}`, ...redis, check: () => probeTcp(redis.host, redis.port, /^(\+PONG|-NOAUTH)/, 'PING\r\n') },
    { name: 'NATS', where: `${nats.host}:${nats.port}`, ...nats, check: () => probeTcp(nats.host, nats.port, /^INFO /) },
  ];
}

export function reasonOf(error: unknown): string {
  return (error as { code?: string }).code ?? (error as Error).message;
}

export async function checkInfrastructure(targets: InfraTargets): Promise<void> {
  for (const { name, where, check } of infraProbes(targets)) {
    try {
      await check();
    } catch (error) {
      throw CliError.failure(`${name} does not answer at ${where} (${reasonOf(error)}); start it with: ${START_COMMANDS[name]}`);
    }
  }
}
