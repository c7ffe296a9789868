import Redis from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port';

const REDIS_SERVER = '/usr/bin/redis-server';
const MASTER_NAME = 'gateway';

/**
 * A local Redis with Sentinel: a primary, one replica and three `redis-server --sentinel` processes, all
 * asking for `password` when given. Sentinel marks a primary down after a second without an answer.
 */
export interface RedisSentinelCluster {
  /** The Sentinels' addresses, as REDIS_SENTINELS takes them. */
  sentinels: string;
  /** The primary's name in the Sentinels' configuration (REDIS_SENTINEL_NAME). */
  name: string;
  /** The two data nodes' ports; the first started as the primary. */
  ports: [number, number];
  /** The port of the primary the Sentinels name now. */
  primaryPort(): Promise<number>;
  /** Kills the data node on `port` (SIGKILL) and waits for its exit. */
  kill(port: number): Promise<void>;
  /** Resolves with the new primary's port once every Sentinel names one other than `port`. */
  promoted(port: number, deadlineMs?: number): Promise<number>;
  /** Cuts the replica on `port` off its primary: writes made now never reach it (until `rejoin`). */
  isolate(port: number): Promise<void>;
  rejoin(port: number): Promise<void>;
  /** A client straight to the data node on `port` (the caller disconnects it). */
  node(port: number): Redis;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Polls `probe` until it resolves true, or fails with `what` after the deadline. */
async function until(what: string, probe: () => Promise<boolean>, deadlineMs = 30_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`redis sentinel cluster: ${what} not within ${deadlineMs} ms`);
    await sleep(100);
  }
}

/** A `SENTINEL MASTER` reply (a flat field, value list) as a record. */
function fieldsOf(reply: unknown): Record<string, string> {
  const list = reply as string[];
  const record: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) record[list[i]!] = list[i + 1]!;
  return record;
}

export async function startRedisSentinelCluster(options: { password?: string } = {}): Promise<RedisSentinelCluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redis-sentinel-'));
  const ports = [await freePort(), await freePort()] as [number, number];
  const sentinelPorts = [await freePort(), await freePort(), await freePort()];
  const auth = options.password ? ['--requirepass', options.password, '--masterauth', options.password] : [];
  const children: ChildProcess[] = [];
  const dataNodes = new Map<number, ChildProcess>();
  // One short-lived client per question: a node may be gone by the next.
  const ask = async <T>(port: number, run: (redis: Redis) => Promise<T>, password: string | null = options.password ?? null): Promise<T> => {
    const redis = new Redis({
      port,
      host: '127.0.0.1',
      password: password ?? undefined,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      return await run(redis);
    } finally {
      redis.disconnect();
    }
  };

  ports.forEach((port, i) => {
    const replicaOf = i === 0 ? [] : ['--replicaof', '127.0.0.1', String(ports[0])];
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--dbfilename', `n${i}.rdb`, '--save', '', '--appendonly', 'no'];
    const child = spawn(REDIS_SERVER, [...args, ...auth, ...replicaOf], { stdio: 'ignore' });
    children.push(child);
    dataNodes.set(port, child);
  });
  await Promise.all(ports.map((port) => until(`node ${port} answering`, () => ask(port, async (r) => (await r.ping()) === 'PONG'))));
  await until('the replica in sync', () => ask(ports[1], async (r) => (await r.info('replication')).includes('master_link_status:up')));

  for (const [i, port] of sentinelPorts.entries()) {
    const config = path.join(dir, `sentinel-${i}.conf`);
    await writeFile(
      config,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${ports[0]} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
        `sentinel failover-timeout ${MASTER_NAME} 5000`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        ...(options.password ? [`sentinel auth-pass ${MASTER_NAME} ${options.password}`] : []),
        '',
      ].join('\n'),
    );
    children.push(spawn(REDIS_SERVER, [config, '--sentinel'], { stdio: 'ignore' }));
  }
  // Every Sentinel knows the replica and the two other Sentinels before anything may fail.
  await Promise.all(
    sentinelPorts.map((port) =>
      until(
        `sentinel ${port} seeing the replica and its peers`,
        () =>
          ask(
            port,
            async (r) => {
              const master = fieldsOf(await r.call('SENTINEL', 'MASTER', MASTER_NAME));
              return master['num-slaves'] === '1' && master['num-other-sentinels'] === '2';
            },
            null,
          ),
        60_000,
      ),
    ),
  );

  const primaryPortAt = async (sentinel: number) =>
    Number(((await ask(sentinel, (r) => r.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', MASTER_NAME), null)) as string[])[1]);

  return {
    sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
    name: MASTER_NAME,
    ports,
    primaryPort: () => primaryPortAt(sentinelPorts[0]!),
    async kill(port) {
      const child = dataNodes.get(port)!;
      child.kill('SIGKILL');
      await exited(child);
    },
    async promoted(port, deadlineMs = 60_000) {
      let now = port;
      await until(
        `a primary other than ${port}`,
        async () => {
          const named = await Promise.all(sentinelPorts.map(primaryPortAt));
          now = named[0]!;
          return named.every((p) => p === now && p !== port) && (await ask(now, async (r) => (await r.info('replication')).includes('role:master')));
        },
        deadlineMs,
      );
      return now;
    },
    async isolate(port) {
      await ask(port, async (r) => {
        await r.config('SET', 'masterauth', 'not-the-password');
        await r.call('CLIENT', 'KILL', 'TYPE', 'master');
      });
      await until(`replica ${port} cut off`, () => ask(port, async (r) => (await r.info('replication')).includes('master_link_status:down')));
    },
    async rejoin(port) {
      await ask(port, (r) => r.config('SET', 'masterauth', options.password ?? ''));
    },
    node: (port) => new Redis({ port, host: '127.0.0.1', password: options.password, maxRetriesPerRequest: 0 }),
    async stop() {
      for (const child of children) child.kill('SIGKILL');
      await Promise.all(children.map(exited));
      await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
