import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import { freePorts } from './free-port';
import { infraProbes } from './infra-check';
import { findExecutable, startInfrastructure } from './infra-start';

const installed = findExecutable('redis-server') !== undefined && findExecutable('nats-server') !== undefined;

/** Whether the process still runs (a zombie has ended: only its parent has yet to reap it). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Redis writes its append-only file as it stops: the folder can be removed only once it has gone. */
async function stopAndWait(pids: number[]): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 15_000;
  while (pids.some(running) && Date.now() < deadline) await sleep(50);
  for (const pid of pids.filter(running)) process.kill(pid, 'SIGKILL');
}

describe('startInfrastructure', () => {
  let dataDir: string;
  const pids: number[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'gateway-infra-'));
  });

  afterAll(async () => {
    await stopAndWait(pids);
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }, 30_000);

  it('starts Redis and NATS that are installed but not running, with their data in the given folder', async () => {
    expect(installed).toBe(true);
    const [redisPort, natsPort] = await freePorts(2);
    const targets = {
      databaseUrl: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gateway',
      redisUrl: `redis://127.0.0.1:${redisPort}`,
      natsUrl: `nats://127.0.0.1:${natsPort}`,
    };
    const said: string[] = [];
    const started = await startInfrastructure(targets, dataDir, (line) => said.push(line));
    pids.push(...started.flatMap((s) => (s.pid ? [s.pid] : [])));
    pids.push(Number(await readFile(path.join(dataDir, 'redis', 'redis.pid'), 'utf8')));

    expect(started.map((s) => s.name).sort()).toEqual(['NATS', 'Redis']);
    expect(said).toContain(`Redis started at 127.0.0.1:${redisPort}`);
    for (const probe of infraProbes(targets)) await expect(probe.check()).resolves.toBeUndefined();
    // A second call finds everything answering and starts nothing.
    expect(await startInfrastructure(targets, dataDir, () => undefined)).toEqual([]);
  }, 60_000);
});
