/**
 * `gatewayctl up` starts what it needs: PostgreSQL, Redis or NATS installed on this machine but not
 * running (on a loopback address) is started, Redis and NATS with their data under `.data/`, PostgreSQL
 * as its installed cluster. What is not installed is named with the command that would start it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../cli-error';
import { infraProbes, reasonOf, START_COMMANDS, type InfraProbe, type InfraTargets } from './infra-check';

const SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const START_TIMEOUT_MS = 30_000;

export function findExecutable(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SEARCH_PATH];
  return dirs.map((dir) => path.join(dir, name)).find((file) => existsSync(file));
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Runs a command to its end; fails with its output. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited with ${code}: ${output.trim().slice(0, 300)}`))));
  });
}

/** A daemon of our own, detached so it outlives this process like the services it stands in for. */
function daemon(command: string, args: string[]): number | undefined {
  const child = spawn(command, args, { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid;
}

export interface StartedInfra {
  name: InfraProbe['name'];
  /** The daemon's process id, when we know it (NATS; Redis writes its pidfile under the data folder). */
  pid?: number;
}

/** How to start each service here, or undefined when it is not installed. */
function starter(probe: InfraProbe, dataDir: string): (() => Promise<number | undefined>) | undefined {
  const { host, port } = probe;
  if (probe.name === 'Redis') {
    const redis = findExecutable('redis-server');
    if (!redis) return undefined;
    return async () => {
      const dir = path.join(dataDir, 'redis');
      mkdirSync(dir, { recursive: true });
      await run(redis, [
        '--daemonize',
        'yes',
        '--bind',
        host,
        '--port',
        String(port),
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--save',
        '',
        '--pidfile',
        path.join(dir, 'redis.pid'),
        '--logfile',
        path.join(dir, 'redis.log'),
      ]);
      return undefined;
    };
  }
  if (probe.name === 'NATS') {
    const nats = findExecutable('nats-server');
    if (!nats) return undefined;
    return async () => {
      const dir = path.join(dataDir, 'nats');
      mkdirSync(dir, { recursive: true });
      return daemon(nats, ['-a', host, '-p', String(port), '-js', '-sd', dir, '-l', path.join(dir, 'nats.log')]);
    };
  }
  const ctl = findExecutable('pg_ctlcluster');
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
  if (!ctl || versions.length === 0) return undefined;
  return async () => {
    await run(ctl, ['--skip-systemctl-redirect', versions.sort().at(-1)!, 'main', 'start']);
    return undefined;
  };
}

async function answersWithin(probe: InfraProbe, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await probe.check();
      return true;
    } catch {
      if (Date.now() > deadline) return false;
      await sleep(250);
    }
  }
}

/**
 * Starts each of PostgreSQL, Redis and NATS that does not answer, where it is installed and meant to
 * run on this machine; fails naming the one it cannot start.
 */
export async function startInfrastructure(targets: InfraTargets, dataDir: string, say: (line: string) => void): Promise<StartedInfra[]> {
  const started: StartedInfra[] = [];
  for (const probe of infraProbes(targets)) {
    try {
      await probe.check();
      continue;
    } catch (error) {
      const start = isLoopback(probe.host) ? starter(probe, dataDir) : undefined;
      if (!start) throw CliError.failure(`${probe.name} does not answer at ${probe.where} (${reasonOf(error)}); start it with: ${START_COMMANDS[probe.name]}`);
    }
    say(`${probe.name} does not answer at ${probe.where}; starting it`);
    const pid = await starter(probe, dataDir)!().catch((error: Error) => {
      throw CliError.failure(`${probe.name} could not be started: ${error.message}`);
    });
    if (!(await answersWithin(probe, START_TIMEOUT_MS))) throw CliError.failure(`${probe.name} was started but does not answer at ${probe.where}`);
    say(`${probe.name} started at ${probe.where}`);
    started.push(pid === undefined ? { name: probe.name } : { name: probe.name, pid });
  }
  return started;
}
