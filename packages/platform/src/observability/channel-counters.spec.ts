import { randomUUID } from 'node:crypto';
import { readChannelCounters, recordUpstreamAttempts } from './channel-counters';

describe('channel counters from the upstream series', () => {
  it('counts answers, errors, calls with no answer and failovers per channel, with latency buckets', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    // a fails with no answer, b answers 503, c answers 200: two failovers (away from a, then from b).
    recordUpstreamAttempts(
      [
        { channelId: a, error: 'upstream_timeout', ms: 30_000 },
        { channelId: b, status: 503, ms: 40 },
        { channelId: c, status: 200, ms: 120 },
      ],
      () => 'openai',
    );
    recordUpstreamAttempts([{ channelId: c, status: 200, ms: 20 }], () => 'openai');
    const counters = new Map((await readChannelCounters()).map((entry) => [entry.channel, entry]));
    expect(counters.get(a)).toMatchObject({ answered: 0, errors: 1, unanswered: 1, failovers: 1 });
    expect(counters.get(b)).toMatchObject({ answered: 1, errors: 1, unanswered: 0, failovers: 1 });
    const served = counters.get(c)!;
    expect(served).toMatchObject({ answered: 2, errors: 0, unanswered: 0, failovers: 0 });
    expect(served.latencySumSeconds).toBeCloseTo(0.14, 6);
    // Cumulative: one answer within 25 ms, both within 250 ms; no +Inf bucket (JSON has no Infinity).
    expect(served.buckets.find((bucket) => bucket.le === 0.025)?.count).toBe(1);
    expect(served.buckets.find((bucket) => bucket.le === 0.25)?.count).toBe(2);
    expect(served.buckets.every((bucket) => Number.isFinite(bucket.le))).toBe(true);
  });
});
