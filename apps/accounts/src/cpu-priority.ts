import { execFileSync } from 'node:child_process';
import { setPriority } from 'node:os';
import type { AccountsEnv } from './accounts-env';

/**
 * Gives this process the CPU priority its settings ask for, at start, before any work. With the idle
 * policy every thread runs under SCHED_IDLE (set with `chrt` from util-linux; a thread started later
 * inherits it): the scheduler treats a CPU that runs only this process as free, so a request-path
 * process that wakes takes it at once. Where `chrt` is missing or refused, the nice level applies.
 */
export function applyCpuPriority(env: Pick<AccountsEnv, 'ACCOUNTS_CPU_POLICY' | 'ACCOUNTS_NICE'>, warn: (line: string) => void): 'idle' | 'nice' | 'normal' {
  if (env.ACCOUNTS_CPU_POLICY === 'idle') {
    try {
      execFileSync('chrt', ['--all-tasks', '--idle', '--pid', '0', String(process.pid)], { stdio: 'ignore', timeout: 5000 });
      return 'idle';
    } catch (error) {
      warn(`accounts: could not take the idle CPU policy (ACCOUNTS_CPU_POLICY=idle, chrt): ${(error as Error).message}; using ACCOUNTS_NICE`);
    }
  }
  if (env.ACCOUNTS_NICE === 0) return 'normal';
  try {
    setPriority(env.ACCOUNTS_NICE);
    return 'nice';
  } catch (error) {
    warn(`accounts: could not lower its CPU priority (ACCOUNTS_NICE): ${(error as Error).message}`);
    return 'normal';
  }
}
