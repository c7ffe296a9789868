import { ChannelHealthReading, SUBJECTS, type ChannelCounters, type ChannelHealth } from '@gateway/contracts';
import { decodeJson, encodeJson, type NatsBus } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long answers to one broadcast are gathered: every process on a healthy bus answers well within it. */
const GATHER_MS = 300;

/** Every process's answer to one channel-health broadcast (a malformed answer is left out). */
export async function gatherChannelHealth(bus: NatsBus, waitMs = GATHER_MS): Promise<ChannelHealthReading[]> {
  const inbox = `_INBOX.channel-health.${randomBytes(8).toString('hex')}`;
  const readings: ChannelHealthReading[] = [];
  const subscription = bus.connection.subscribe(inbox, {
    callback: (error, msg) => {
      if (error) return;
      const parsed = ChannelHealthReading.safeParse(decodeJson(msg.data));
      if (parsed.success) readings.push(parsed.data);
    },
  });
  bus.connection.publish(bus.prefix + SUBJECTS.ops.channelHealth, encodeJson({}), { reply: inbox });
  await sleep(waitMs);
  subscription.unsubscribe();
  return readings;
}

/** The upper bound of the bucket holding the q-th quantile of cumulative buckets, in ms; null with no observation. */
function quantileMs(buckets: ChannelCounters['buckets'], count: number, q: number): number | null {
  if (count === 0) return null;
  const rank = q * count;
  for (const bucket of buckets) if (bucket.count >= rank) return bucket.le * 1000;
  // Past the last finite bucket: the largest bound is all that is known.
  return buckets.length ? buckets[buckets.length - 1]!.le * 1000 : null;
}

/** Each channel's counters summed over every process that answered, as error rate, latency and failovers. */
export function summarizeChannels(readings: readonly ChannelHealthReading[]): Map<string, ChannelHealth> {
  const summed = new Map<string, ChannelCounters>();
  for (const reading of readings) {
    for (const counters of reading.channels) {
      const into = summed.get(counters.channel);
      if (!into) {
        summed.set(counters.channel, { ...counters, buckets: counters.buckets.map((b) => ({ ...b })) });
        continue;
      }
      into.answered += counters.answered;
      into.errors += counters.errors;
      into.unanswered += counters.unanswered;
      into.throttled += counters.throttled;
      into.failovers += counters.failovers;
      into.latencySumSeconds += counters.latencySumSeconds;
      for (const bucket of counters.buckets) {
        const same = into.buckets.find((b) => b.le === bucket.le);
        if (same) same.count += bucket.count;
        else into.buckets.push({ ...bucket });
      }
      into.buckets.sort((a, b) => a.le - b.le);
    }
  }
  const health = new Map<string, ChannelHealth>();
  for (const [channel, c] of summed) {
    const calls = Math.round(c.answered + c.unanswered);
    health.set(channel, {
      calls,
      errors: Math.round(c.errors),
      errorRate: calls === 0 ? null : Math.min(1, c.errors / calls),
      throttled: Math.round(c.throttled),
      failovers: Math.round(c.failovers),
      latencyMeanMs: c.answered === 0 ? null : (c.latencySumSeconds / c.answered) * 1000,
      latencyP95Ms: quantileMs(c.buckets, c.answered, 0.95),
    });
  }
  return health;
}

export const NO_CALLS: ChannelHealth = { calls: 0, errors: 0, errorRate: null, throttled: 0, failovers: 0, latencyMeanMs: null, latencyP95Ms: null };
