import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const built = path.resolve(__dirname, '../dist/cpu-priority.js');

/** Applies the policy in a child process (never in the test runner) and reports what it got. */
async function applyInChild(env: { ACCOUNTS_CPU_POLICY: string; ACCOUNTS_NICE: number }, pathVariable = process.env.PATH ?? '') {
  const script = `
    const { execFileSync } = require('node:child_process');
    const { getPriority } = require('node:os');
    const warnings = [];
    const result = require(${JSON.stringify(built)}).applyCpuPriority(${JSON.stringify(env)}, (line) => warnings.push(line));
    const policy = execFileSync('/usr/bin/chrt', ['-p', String(process.pid)]).toString();
    const threads = require('node:fs').readdirSync('/proc/self/task').map((tid) => execFileSync('/usr/bin/chrt', ['-p', tid]).toString());
    process.stdout.write(JSON.stringify({ result, policy, threads, nice: getPriority(), warnings }));`;
  const { stdout } = await run(process.execPath, ['-e', script], { env: { ...process.env, PATH: pathVariable } });
  return JSON.parse(stdout) as { result: string; policy: string; threads: string[]; nice: number; warnings: string[] };
}

describe('accounts CPU priority', () => {
  it('runs every thread under SCHED_IDLE with the idle policy', async () => {
    const got = await applyInChild({ ACCOUNTS_CPU_POLICY: 'idle', ACCOUNTS_NICE: 10 });
    expect(got.result).toBe('idle');
    expect(got.policy).toContain('SCHED_IDLE');
    expect(got.threads.length).toBeGreaterThan(1);
    for (const thread of got.threads) expect(thread).toContain('SCHED_IDLE');
    expect(got.warnings).toEqual([]);
  });

  it('keeps the default policy and takes the nice level with the normal policy', async () => {
    const got = await applyInChild({ ACCOUNTS_CPU_POLICY: 'normal', ACCOUNTS_NICE: 7 });
    expect(got.result).toBe('nice');
    expect(got.policy).toContain('SCHED_OTHER');
    expect(got.nice).toBe(7);
  });

  it('falls back to the nice level, and says so, where chrt cannot be run', async () => {
    const got = await applyInChild({ ACCOUNTS_CPU_POLICY: 'idle', ACCOUNTS_NICE: 5 }, '/nonexistent');
    expect(got.result).toBe('nice');
    expect(got.policy).toContain('SCHED_OTHER');
    expect(got.nice).toBe(5);
    expect(got.warnings).toHaveLength(1);
    expect(got.warnings[0]).toMatch(/could not take the idle CPU policy \(ACCOUNTS_CPU_POLICY=idle, chrt\).*using ACCOUNTS_NICE/);
  });
});
