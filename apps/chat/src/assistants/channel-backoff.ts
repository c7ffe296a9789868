/** The longest a channel is left alone after failures in a row. */
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * When each upstream channel may be asked again after it answered 429, 5xx or not at all: the wait
 * doubles with each failure in a row (from `baseMs`, up to five minutes), at least what the upstream's
 * Retry-After asked, and ends with the first answer. Kept per process: replicas learn on their own.
 */
export class ChannelBackoff {
  private readonly channels = new Map<string, { failures: number; until: number }>();

  constructor(private readonly baseMs: number) {}

  /** How long `channelId` is still to be left alone at `now`; 0 when it may be asked. */
  waitFor(channelId: string, now = Date.now()): number {
    const entry = this.channels.get(channelId);
    return entry ? Math.max(0, entry.until - now) : 0;
  }

  /** Records a failure and returns the wait it starts. */
  failed(channelId: string, retryAfterSeconds?: number, now = Date.now()): number {
    const failures = (this.channels.get(channelId)?.failures ?? 0) + 1;
    const wait = Math.min(MAX_BACKOFF_MS, Math.max(this.baseMs * 2 ** (failures - 1), (retryAfterSeconds ?? 0) * 1000));
    this.channels.set(channelId, { failures, until: now + wait });
    return wait;
  }

  succeeded(channelId: string): void {
    this.channels.delete(channelId);
  }
}
