import type Redis from 'ioredis';

/** The wait before the next poll: the base interval, doubled for each refusal in a row up to the cap, or what the upstream asked for. */
export function pollDelayMs(refusals: number, retryAfterSeconds: number | null, baseMs: number, maxMs: number): number {
  if (retryAfterSeconds !== null) return Math.min(maxMs, Math.max(baseMs, retryAfterSeconds * 1000));
  return Math.min(maxMs, baseMs * 2 ** Math.min(16, refusals));
}

/**
 * Backoff per upstream channel, shared by every worker through Redis: each refusal (429, 5xx, no answer)
 * of a channel's batch API doubles the wait before any batch on that channel is polled again, and an
 * answer resets it. So many batches on one struggling upstream slow down together instead of each
 * hammering it on its own schedule.
 */
export class UpstreamBackoff {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  private key(channelId: string): string {
    return `${this.prefix}native-backoff:${channelId}`;
  }

  /** Counts a refusal; returns the wait before the next poll. */
  async refused(channelId: string, retryAfterSeconds: number | null): Promise<number> {
    const key = this.key(channelId);
    const [[, refusals]] = (await this.redis
      .multi()
      .incr(key)
      .pexpire(key, this.maxMs * 2)
      .exec()) as [[Error | null, number], unknown];
    return pollDelayMs(refusals, retryAfterSeconds, this.baseMs, this.maxMs);
  }

  async answered(channelId: string): Promise<void> {
    await this.redis.del(this.key(channelId));
  }

  /** The wait before the next poll of a batch on this channel, given its refusals so far. */
  async delay(channelId: string): Promise<number> {
    return pollDelayMs(Number((await this.redis.get(this.key(channelId))) ?? 0), null, this.baseMs, this.maxMs);
  }
}
