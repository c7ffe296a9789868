import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

const NATS_SERVER = '/usr/sbin/nats-server';

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes('Server is ready')) return;
      child.stderr!.off('data', onData);
      resolve();
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`nats-server exited with ${code}: ${seen.slice(-500)}`)));
  });
}

/** A local NATS cluster with JetStream: `size` nats-server processes with routes to each other. */
export interface NatsCluster {
  /** Every client address, comma-separated, as NATS_URL takes them. */
  url: string;
  ports: number[];
  /** Kills the node listening on `port` (SIGKILL). */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startNatsCluster(size = 3): Promise<NatsCluster> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nats-cluster-'));
  const ports = await Promise.all(Array.from({ length: size }, freePort));
  const routePorts = await Promise.all(Array.from({ length: size }, freePort));
  const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`).join(',');
  // Every node lists every route, its own included (a node skips itself).
  const nodes = ports.map((port, i) =>
    spawn(
      NATS_SERVER,
      [
        ...['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(dir, `n${i}`)],
        ...['--server_name', `n${i}`, '--cluster_name', 'spec', '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes],
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    ),
  );
  await Promise.all(nodes.map(ready));
  const exited = (node: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (node.exitCode !== null || node.signalCode !== null) resolve();
      else node.once('exit', () => resolve());
    });
  return {
    url: ports.map((port) => `nats://127.0.0.1:${port}`).join(','),
    ports,
    async kill(port) {
      const node = nodes[ports.indexOf(port)]!;
      node.kill('SIGKILL');
      await exited(node);
    },
    async stop() {
      for (const node of nodes) node.kill('SIGKILL');
      await Promise.all(nodes.map(exited));
      await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
