/** Hands the running stack from the global setup to the global teardown (same process, separate modules). */
import type { WriteStream } from 'node:fs';
import type { TestDatabase } from '@gateway/db';
import type { RunningStack } from '@gateway/cli';

export interface E2eRun {
  stack: RunningStack;
  db: TestDatabase;
  log: WriteStream;
  logFile: string;
}

const KEY = Symbol.for('gateway.e2e.run');
type Holder = { [KEY]?: E2eRun };

export function setE2eRun(run: E2eRun): void {
  (globalThis as Holder)[KEY] = run;
}

export function takeE2eRun(): E2eRun | undefined {
  const run = (globalThis as Holder)[KEY];
  delete (globalThis as Holder)[KEY];
  return run;
}
