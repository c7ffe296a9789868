import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { RedisStateLog } from '../redis/redis-state-log';
import { QueueFactory } from './queue-factory';
import { queuePrefix } from './queue-prefix';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function startRedis(port: number, dir: string): ChildProcess {
  return spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''], {
    stdio: 'ignore',
  });
}

/** Resolves once the port answers PING, so the factory's first connect finds Redis up. */
async function answering(port: number): Promise<void> {
  for (const deadline = Date.now() + 10_000; ;) {
    const pong = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
      socket.once('data', (data) => (socket.destroy(), resolve(data.toString().startsWith('+PONG'))));
      socket.once('error', () => resolve(false));
    });
    if (pong) return;
    if (Date.now() > deadline) throw new Error(`no Redis answers on ${port}`);
    await sleep(50);
  }
}

async function until(what: string, done: () => boolean, lines: string[], timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: gave up (lines: ${JSON.stringify(lines)})`);
    await sleep(50);
  }
}

describe('queues across a Redis restart', () => {
  let dir: string;
  let port: number;
  let redis: ChildProcess;
  let factory: QueueFactory;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'queue-resume-'));
    port = await freePort();
    redis = startRedis(port, dir);
    await answering(port);
    factory = new QueueFactory({
      redis: `redis://127.0.0.1:${port}`,
      prefix: queuePrefix('test', `r${randomBytes(4).toString('hex')}.`),
      state: new RedisStateLog((line) => lines.push(line)),
    });
  });

  afterAll(async () => {
    await factory.close();
    redis.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  it('a worker resumes by itself after Redis comes back, and the outage is two lines', async () => {
    const done: number[] = [];
    factory.worker('resumed', z.object({ n: z.number() }), async ({ n }) => void done.push(n), { concurrency: 1 });
    await factory.queue('resumed').add('job', { n: 1 });
    await until('first job', () => done.includes(1), lines);
    expect(lines).toEqual([]);

    redis.kill('SIGKILL');
    await new Promise((resolve) => redis.once('exit', resolve));
    await until('the loss logged', () => lines.length === 1, lines);
    redis = startRedis(port, dir);
    await until('the return logged', () => lines.length === 2, lines);

    await factory.queue('resumed').add('job', { n: 2 });
    await until('a job after the restart', () => done.includes(2), lines, 30_000);
    expect(lines[0]).toMatch(/^redis lost \(queues\): /);
    expect(lines.slice(1)).toEqual(['redis back']);
  }, 60_000);
});
