/**
 * CPU time of processes read from /proc: utime + stime of each (its threads included), in microseconds.
 * A run's cost per process is the difference of two readings; processes are found by pid (the stack's own
 * apps) or by name (NATS, Redis and every Postgres backend, which come and go with connections).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU microseconds a process has used so far, or 0 when it is gone. */
export function cpuMicrosOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start after its closing parenthesis; utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The pids of every process whose command name is `name`. */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids;
}

export interface CpuGroup {
  name: string;
  /** The group's pids now (read again at each reading: Postgres backends come and go). */
  pids: () => number[];
}

export type CpuReading = Map<string, Map<number, number>>;

export function readCpu(groups: readonly CpuGroup[]): CpuReading {
  return new Map(groups.map((group) => [group.name, new Map(group.pids().map((pid) => [pid, cpuMicrosOf(pid)]))]));
}

/**
 * CPU microseconds each group used between two readings. A process that started in between counts from
 * zero; one that ended in between is missed (its last share is lost), which only short-lived Postgres
 * backends do, and the bench keeps its connections open.
 */
export function cpuBetween(before: CpuReading, after: CpuReading): Map<string, number> {
  const used = new Map<string, number>();
  for (const [name, pids] of after) {
    const earlier = before.get(name) ?? new Map<number, number>();
    let sum = 0;
    for (const [pid, micros] of pids) sum += Math.max(0, micros - (earlier.get(pid) ?? 0));
    used.set(name, sum);
  }
  return used;
}
