import type { StreamEntry, WalletEventReader } from '@gateway/billing';
import type { BatchSource, SourceMessage } from '@gateway/platform';

export interface WalletEventMessage extends SourceMessage {
  /** The entry's id in the Redis stream. */
  readonly id: string;
}

export interface WalletEventSourceOptions {
  /** A read with nothing to take waits this long for new entries. */
  blockMs: number;
  /** Entries another member has held this long without acknowledging are taken over (it crashed). */
  claimIdleMs: number;
}

/**
 * The wallet's Redis event stream, as one member of its consumer group, as a batch source. An entry
 * stays pending until acknowledged (then deleted); a retry keeps it pending and takes it back once its
 * delay is over. At start, after a failure and every half claimIdleMs, entries a dead member left pending
 * are claimed first.
 */
export class WalletEventSource implements BatchSource<WalletEventMessage> {
  /** Taken back at `retryAt`: entries to write again. */
  private retrying = new Set<string>();
  private retryAt = 0;
  private stale = true;
  /**
   * When to look again for entries a member left pending: one that died after this one started leaves
   * them claimable only once they have been idle for claimIdleMs, so the look is repeated, not only made
   * at start.
   */
  private staleCheckAt = 0;

  constructor(
    private readonly reader: WalletEventReader,
    private readonly options: WalletEventSourceOptions,
  ) {}

  async pull(max: number): Promise<WalletEventMessage[]> {
    if (this.retrying.size > 0 && Date.now() >= this.retryAt) {
      const ids = [...this.retrying];
      this.retrying = new Set();
      return messages(await this.reader.reclaim(ids));
    }
    if (this.stale || Date.now() >= this.staleCheckAt) {
      const entries = await this.reader.claimStale(this.options.claimIdleMs, max);
      this.stale = entries.length === max;
      this.staleCheckAt = Date.now() + this.options.claimIdleMs / 2;
      return messages(entries);
    }
    return messages(await this.reader.read(max, this.options.blockMs));
  }

  ack(taken: readonly WalletEventMessage[]): Promise<void> {
    return this.reader.ack(taken.map((m) => m.id));
  }

  async retry(taken: readonly WalletEventMessage[], delayMs: number): Promise<void> {
    for (const { id } of taken) this.retrying.add(id);
    this.retryAt = Date.now() + delayMs;
  }

  /** An unreadable entry is acknowledged (and deleted) like a written one: no retry can read it. */
  discard(taken: readonly WalletEventMessage[]): Promise<void> {
    return this.ack(taken);
  }

  async deliveries(taken: readonly WalletEventMessage[]): Promise<Array<number | undefined>> {
    const counts = await this.reader.deliveries(taken.map((m) => m.id));
    return taken.map((m) => counts.get(m.id));
  }

  async recover(): Promise<void> {
    this.stale = true;
    await this.reader.ensureGroup();
  }
}

/** The reader has parsed each entry already: an unreadable one is null, which the consumer's schema refuses. */
function messages(entries: StreamEntry[]): WalletEventMessage[] {
  return entries.map((entry) => ({ id: entry.id, body: entry.event }));
}
