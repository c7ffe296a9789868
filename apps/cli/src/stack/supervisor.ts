/**
 * Keeps the apps of a running stack up, as a process supervisor does: an app that exits without being
 * asked to is started again after a backoff that grows with each quick restart, and the log says so.
 * An app that keeps crashing (a crash loop) is given up on, and the stack is stopped.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppProcess, LogSink } from './app-process';

export interface SupervisorPolicy {
  /** Delays before the 1st, 2nd, ... restart in a row; the last one repeats. */
  backoffMs: readonly number[];
  /** This many restarts of one app within `crashLoopWindowMs` is a crash loop. */
  crashLoopRestarts: number;
  crashLoopWindowMs: number;
  /** An app that ran this long since its last start begins again at the first backoff. */
  stableAfterMs: number;
}

export const DEFAULT_POLICY: SupervisorPolicy = {
  backoffMs: [250, 500, 1000, 2000, 4000, 8000],
  crashLoopRestarts: 5,
  crashLoopWindowMs: 60_000,
  stableAfterMs: 30_000,
};

export class Supervisor {
  private stopping = false;
  private giveUp!: (app: AppProcess) => void;
  /** Resolves with the app that crash-looped. */
  readonly gaveUp = new Promise<AppProcess>((resolve) => (this.giveUp = resolve));

  constructor(
    /** The stack's processes; a restarted app takes its predecessor's place in this array. */
    private readonly processes: AppProcess[],
    private readonly respawn: (exited: AppProcess) => AppProcess,
    private readonly sink: LogSink,
    private readonly policy: SupervisorPolicy = DEFAULT_POLICY,
  ) {
    for (const app of processes) this.watch(app, []);
  }

  /** From now on an exit is expected: nothing is restarted. */
  stop(): void {
    this.stopping = true;
  }

  private watch(app: AppProcess, restarts: number[]): void {
    const startedAt = Date.now();
    void app.exited.then(async (code) => {
      if (this.stopping) return;
      const now = Date.now();
      const recent = now - startedAt >= this.policy.stableAfterMs ? [] : restarts.filter((at) => now - at < this.policy.crashLoopWindowMs);
      const how = code === null ? 'was killed by a signal' : `exited with code ${code}`;
      if (recent.length >= this.policy.crashLoopRestarts) {
        this.sink('stack', `${app.name} ${how}; ${recent.length} restarts within ${this.policy.crashLoopWindowMs / 1000} s: crash loop, giving up`);
        this.giveUp(app);
        return;
      }
      const delay = this.policy.backoffMs[Math.min(recent.length, this.policy.backoffMs.length - 1)]!;
      this.sink('stack', `${app.name} ${how}; restarting in ${delay} ms (restart ${recent.length + 1})`);
      await sleep(delay);
      if (this.stopping) return;
      const next = this.respawn(app);
      const index = this.processes.indexOf(app);
      if (index >= 0) this.processes[index] = next;
      else this.processes.push(next);
      this.watch(next, [...recent, Date.now()]);
    });
  }
}
