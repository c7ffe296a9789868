import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessStats, ProcessStatsProbe } from './process-stats';

describe('ProcessStatsProbe', () => {
  const probe = new ProcessStatsProbe('spec');
  afterAll(() => probe.stop());

  it('starts its delay window at the first reading, then reports a blocked loop in the next one only', async () => {
    const first = ProcessStats.parse(probe.read());
    expect(first).toMatchObject({ app: 'spec', pid: process.pid, eventLoopDelayMs: { mean: 0, p99: 0, max: 0 } });
    expect(first.rssBytes).toBeGreaterThan(first.heapUsedBytes);
    await sleep(30);
    const blockedUntil = Date.now() + 80;
    while (Date.now() < blockedUntil);
    await sleep(30);
    const blocked = probe.read();
    expect(blocked.eventLoopDelayMs.max).toBeGreaterThanOrEqual(50);
    await sleep(30);
    expect(probe.read().eventLoopDelayMs.max).toBeLessThan(blocked.eventLoopDelayMs.max);
  });
});
