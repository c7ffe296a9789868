import type { ChannelHealthReading } from '@gateway/contracts';
import { summarizeChannels } from './channel-health.collector';

const reading = (app: string, pid: number, channels: ChannelHealthReading['channels']): ChannelHealthReading => ({ app, pid, channels });

describe('channel health summed over processes', () => {
  it('adds every process counters per channel and derives error rate, mean latency and the p95 bucket', () => {
    const health = summarizeChannels([
      reading('chat', 1, [
        {
          channel: 'a',
          answered: 8,
          errors: 1,
          unanswered: 0,
          throttled: 1,
          failovers: 1,
          latencySumSeconds: 0.8,
          buckets: [
            { le: 0.1, count: 6 },
            { le: 0.5, count: 8 },
            { le: 1, count: 8 },
          ],
        },
      ]),
      reading('chat', 2, [
        {
          channel: 'a',
          answered: 10,
          errors: 2,
          unanswered: 2,
          throttled: 0,
          failovers: 2,
          latencySumSeconds: 1.0,
          buckets: [
            { le: 0.1, count: 9 },
            { le: 0.5, count: 9 },
            { le: 1, count: 10 },
          ],
        },
        { channel: 'b', answered: 0, errors: 0, unanswered: 0, throttled: 0, failovers: 0, latencySumSeconds: 0, buckets: [] },
      ]),
    ]);
    // 18 answered + 2 with no answer; 3 errors.
    expect(health.get('a')).toEqual({ calls: 20, errors: 3, errorRate: 0.15, throttled: 1, failovers: 3, latencyMeanMs: 100, latencyP95Ms: 1000 });
    expect(health.get('b')).toEqual({ calls: 0, errors: 0, errorRate: null, throttled: 0, failovers: 0, latencyMeanMs: null, latencyP95Ms: null });
  });

  it('puts the 95th percentile in the first bucket holding 95 % of the answers', () => {
    const health = summarizeChannels([
      reading('media', 3, [
        {
          channel: 'c',
          answered: 100,
          errors: 0,
          unanswered: 0,
          throttled: 0,
          failovers: 0,
          latencySumSeconds: 10,
          buckets: [
            { le: 0.05, count: 90 },
            { le: 0.25, count: 96 },
            { le: 1, count: 100 },
          ],
        },
      ]),
    ]);
    expect(health.get('c')?.latencyP95Ms).toBe(250);
  });
});
