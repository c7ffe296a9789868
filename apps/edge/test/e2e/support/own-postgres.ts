/**
 * A PostgreSQL server of a spec's own (initdb into a temporary folder, a free port), to restart under
 * load without touching the machine's server that other specs share.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from '@gateway/cli';

const run = promisify(execFile);

/** Debian's binaries of the newest installed major version. */
function postgresBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  if (majors.length === 0) throw new Error(`no PostgreSQL under ${root}`);
  return path.join(root, majors[0]!, 'bin', name);
}

/** PostgreSQL refuses to run as root: as root, the server runs as the postgres user. */
function asServerUser(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface OwnPostgres {
  /** The server's admin database, as createTestDatabase takes it. */
  url: string;
  /** Stops the server as a restart does (fast shutdown: sessions are ended), and starts it again after `downMs`. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

async function accepting(port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await run(postgresBin('pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres']);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`PostgreSQL on ${port} does not accept connections`);
      await sleep(100);
    }
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startPostgres(log: NodeJS.WritableStream): Promise<OwnPostgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gateway-own-postgres-'));
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const data = path.join(dir, 'data');
  const [initdb, initArgs] = asServerUser(postgresBin('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  await run(initdb, initArgs);
  const port = await freePort();
  let server: ChildProcess;
  const start = async () => {
    const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'max_connections=200'];
    const [command, args] = asServerUser(postgresBin('postgres'), ['-D', data, '-p', String(port), ...settings]);
    server = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.pipe(log, { end: false });
    server.stderr!.pipe(log, { end: false });
    await accepting(port);
  };
  const shutDown = async () => {
    // SIGINT is PostgreSQL's fast shutdown: every session is ended, as in a restart or a switchover. It goes
    // to the server itself (postmaster.pid), which runuser does not pass signals on to.
    const postmaster = Number((await readFile(path.join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    process.kill(postmaster, 'SIGINT');
    await exited(server);
    await new Promise<void>((resolve) => {
      // runuser exits with the server; wait until the port is free too.
      const probe = () => {
        const socket = net.connect({ host: '127.0.0.1', port }, () => (socket.destroy(), setTimeout(probe, 50)));
        socket.once('error', () => resolve());
      };
      probe();
    });
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    async restart(downMs) {
      await shutDown();
      await sleep(downMs);
      await start();
    },
    async stop() {
      await shutDown();
      await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
