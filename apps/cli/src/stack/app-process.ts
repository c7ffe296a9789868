/** One app of the stack as a child process: its output line by line to a sink, and a stop that always ends it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export type LogSink = (app: string, line: string) => void;

const TAIL_LINES = 30;

export class AppProcess {
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private exitCode: number | null | undefined;

  constructor(
    readonly name: string,
    entry: string,
    env: NodeJS.ProcessEnv,
    cwd: string,
    sink: LogSink,
    nodeArgs: readonly string[] = [],
  ) {
    this.child = spawn(process.execPath, [...nodeArgs, entry], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onLine = (line: string) => {
      this.tail.push(line);
      if (this.tail.length > TAIL_LINES) this.tail.shift();
      sink(name, line);
    };
    createInterface({ input: this.child.stdout! }).on('line', onLine);
    createInterface({ input: this.child.stderr! }).on('line', onLine);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? null : code);
        resolve(code);
      });
      this.child.once('error', (error) => {
        onLine(`failed to start: ${error.message}`);
        this.exitCode = -1;
        resolve(-1);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** The app's last output lines, for an error message when it dies during start-up. */
  lastLines(count = 8): string {
    return this.tail.slice(-count).join('\n');
  }

  /** Synchronous last resort for process 'exit' handlers: no waiting possible there. */
  killNow(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
