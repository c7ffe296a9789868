import type { ChannelCounters } from '@gateway/contracts';
import { gatewayMetrics } from './metrics';

interface Sample {
  labels: Partial<Record<string, string | number>>;
  value: number;
  metricName?: string;
}

/**
 * This process's upstream series (gateway_upstream_duration_seconds, _errors_total, _throttled_total, _failovers_total)
 * read from its own registry and grouped by channel: what the channel-health broadcast answers.
 */
export async function readChannelCounters(): Promise<ChannelCounters[]> {
  const [duration, errors, failovers, throttles] = await Promise.all([
    gatewayMetrics.upstreamDuration.get(),
    gatewayMetrics.upstreamErrors.get(),
    gatewayMetrics.upstreamFailovers.get(),
    gatewayMetrics.upstreamThrottles.get(),
  ]);
  const byChannel = new Map<string, ChannelCounters>();
  const of = (channel: string): ChannelCounters => {
    let counters = byChannel.get(channel);
    if (!counters) {
      counters = { channel, answered: 0, errors: 0, unanswered: 0, throttled: 0, failovers: 0, latencySumSeconds: 0, buckets: [] };
      byChannel.set(channel, counters);
    }
    return counters;
  };
  for (const sample of duration.values as Sample[]) {
    const channel = String(sample.labels.channel ?? '');
    const counters = of(channel);
    if (sample.metricName?.endsWith('_count')) counters.answered += sample.value;
    else if (sample.metricName?.endsWith('_sum')) counters.latencySumSeconds += sample.value;
    else if (sample.metricName?.endsWith('_bucket')) {
      const le = sample.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(sample.labels.le);
      const bucket = counters.buckets.find((b) => b.le === le);
      if (bucket) bucket.count += sample.value;
      else counters.buckets.push({ le, count: sample.value });
    }
  }
  for (const sample of errors.values as Sample[]) {
    const counters = of(String(sample.labels.channel ?? ''));
    counters.errors += sample.value;
    if (sample.labels.status === 'error') counters.unanswered += sample.value;
  }
  for (const sample of failovers.values as Sample[]) of(String(sample.labels.channel ?? '')).failovers += sample.value;
  for (const sample of throttles.values as Sample[]) of(String(sample.labels.channel ?? '')).throttled += sample.value;
  // JSON has no Infinity: the +Inf bucket equals the count, which the reader has already.
  for (const counters of byChannel.values()) counters.buckets = counters.buckets.filter((b) => Number.isFinite(b.le)).sort((a, b) => a.le - b.le);
  return [...byChannel.values()];
}

/** One upstream attempt of a failover, as the providers' failover loop reports it. */
export interface UpstreamAttemptRecord {
  channelId: string;
  status?: number;
  error?: string;
  ms: number;
}

/**
 * Counts a request's upstream attempts, after the fact, in the upstream series (for callers that do not
 * watch each attempt as it happens): an attempt after another is a failover away from the one before.
 */
export function recordUpstreamAttempts(attempts: readonly UpstreamAttemptRecord[], systemOf: (channelId: string) => string): void {
  attempts.forEach((attempt, index) => {
    if (index > 0) gatewayMetrics.upstreamFailovers.inc({ channel: attempts[index - 1]!.channelId });
    if (attempt.status === undefined) {
      gatewayMetrics.upstreamErrors.inc({ channel: attempt.channelId, status: 'error' });
      return;
    }
    gatewayMetrics.upstreamDuration.observe({ channel: attempt.channelId, system: systemOf(attempt.channelId) }, attempt.ms / 1000);
    if (attempt.status >= 400) gatewayMetrics.upstreamErrors.inc({ channel: attempt.channelId, status: String(attempt.status) });
  });
}
