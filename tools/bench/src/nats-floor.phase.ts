/** bench:cpu's floor: the CPU of one HTTP hop plus one NATS request-reply, measured like the gateway. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pidsNamed, type CpuGroup } from './process-cpu';

export interface FloorProcesses {
  url: string;
  groups: CpuGroup[];
  stop(): void;
}

function start(role: 'server' | 'responder', subject: string, natsUrl: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [path.join(__dirname, 'nats-floor.server.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FLOOR_ROLE: role, FLOOR_SUBJECT: subject, NATS_URL: natsUrl },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor's ${role} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (port) => resolve({ child, port: Number(port.trim()) }));
  });
}

/** The bare HTTP server and the bare responder, each a process, on the gateway's NATS server. */
export async function startFloor(subject: string, natsUrl: string): Promise<FloorProcesses> {
  const responder = await start('responder', subject, natsUrl);
  const server = await start('server', subject, natsUrl);
  const pidOf = (child: ChildProcess) => () => (child.pid === undefined ? [] : [child.pid]);
  return {
    url: `http://127.0.0.1:${server.port}/floor`,
    groups: [
      { name: 'bare HTTP server', pids: pidOf(server.child) },
      { name: 'bare NATS responder', pids: pidOf(responder.child) },
      { name: 'nats-server', pids: () => pidsNamed('nats-server') },
    ],
    stop() {
      server.child.kill('SIGTERM');
      responder.child.kill('SIGTERM');
    },
  };
}
