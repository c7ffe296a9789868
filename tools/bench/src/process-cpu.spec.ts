import { cpuBetween, cpuMicrosOf, pidsNamed } from './process-cpu';

describe('process CPU from /proc', () => {
  it('reads this process using CPU as it works', () => {
    const before = cpuMicrosOf(process.pid);
    const start = process.cpuUsage();
    let spin = 0;
    // Until Node itself counts 200 ms of CPU, however busy the machine is.
    while (((usage) => usage.user + usage.system)(process.cpuUsage(start)) < 200_000) spin++;
    expect(spin).toBeGreaterThan(0);
    expect(cpuMicrosOf(process.pid) - before).toBeGreaterThanOrEqual(150_000);
  });

  it('reads 0 for a process that is gone, and finds processes by name', () => {
    expect(cpuMicrosOf(2 ** 22 + 1)).toBe(0);
    expect(pidsNamed('node')).toContain(process.pid);
  });

  it('sums each group over its pids, counting a process that started in between from zero', () => {
    const before = new Map([
      [
        'postgres',
        new Map([
          [10, 500],
          [11, 100],
        ]),
      ],
    ]);
    const after = new Map([
      [
        'postgres',
        new Map([
          [10, 800],
          [11, 100],
          [12, 50],
        ]),
      ],
    ]);
    expect(cpuBetween(before, after)).toEqual(new Map([['postgres', 350]]));
  });
});
