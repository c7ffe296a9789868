import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppProcess } from './app-process';
import { Supervisor } from './supervisor';

const POLICY = { backoffMs: [50, 100], crashLoopRestarts: 3, crashLoopWindowMs: 10_000, stableAfterMs: 10_000 };

async function script(body: string): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'supervisor-')), 'app.js');
  await writeFile(file, body);
  return file;
}

function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const poll = () => (check() ? resolve() : Date.now() > deadline ? reject(new Error('timed out')) : setTimeout(poll, 20));
    poll();
  });
}

describe('Supervisor', () => {
  it('restarts an app killed with -9 and says so, leaving the others running', async () => {
    const entry = await script("console.log('up'); setInterval(() => undefined, 1000);");
    const lines: string[] = [];
    const sink = (app: string, line: string) => lines.push(`[${app}] ${line}`);
    const start = (name: string) => new AppProcess(name, entry, process.env, os.tmpdir(), sink);
    const processes = [start('chat'), start('edge')];
    const supervisor = new Supervisor(processes, (exited) => start(exited.name), sink, POLICY);
    try {
      await until(() => lines.filter((l) => l.endsWith(' up')).length === 2);
      const [chat, edge] = processes;
      process.kill(chat!.pid!, 'SIGKILL');
      await until(() => processes[0] !== chat && processes[0]!.running && lines.filter((l) => l === '[chat] up').length === 2);
      expect(lines).toContain('[stack] chat was killed by a signal; restarting in 50 ms (restart 1)');
      expect(processes[1]).toBe(edge);
      expect(edge!.running).toBe(true);
    } finally {
      supervisor.stop();
      await Promise.all(processes.map((p) => p.stop()));
    }
  });

  it('gives up on an app that crash-loops, with backoff between its restarts', async () => {
    const entry = await script('process.exit(3);');
    const lines: string[] = [];
    const sink = (app: string, line: string) => lines.push(`[${app}] ${line}`);
    const start = () => new AppProcess('music', entry, process.env, os.tmpdir(), sink);
    const processes = [start()];
    const supervisor = new Supervisor(processes, start, sink, POLICY);
    const gaveUp = await supervisor.gaveUp;
    expect(gaveUp.name).toBe('music');
    expect(lines).toEqual([
      '[stack] music exited with code 3; restarting in 50 ms (restart 1)',
      '[stack] music exited with code 3; restarting in 100 ms (restart 2)',
      '[stack] music exited with code 3; restarting in 100 ms (restart 3)',
      '[stack] music exited with code 3; 3 restarts within 10 s: crash loop, giving up',
    ]);
  });
});
