/** A message as a source hands it over: its decoded body (JSON, stream fields), not yet parsed. */
export interface SourceMessage {
  readonly body: unknown;
}

/**
 * A durable stream as the batch consumer sees it (a JetStream pull consumer, a Redis consumer group):
 * what is taken stays the taker's until acknowledged, and is delivered again otherwise. Each method
 * takes messages this source handed over.
 */
export interface BatchSource<M extends SourceMessage> {
  /** What the stream holds for this consumer now, up to `max` (it may wait a little when there is nothing). */
  pull(max: number): Promise<M[]>;
  /** Done with: never delivered again. */
  ack(messages: readonly M[]): Promise<void>;
  /** Delivered again, no sooner than `delayMs` from now. */
  retry(messages: readonly M[], delayMs: number): Promise<void>;
  /** Unreadable: never delivered again, and never written. */
  discard(messages: readonly M[]): Promise<void>;
  /** How many times each has been delivered, this time included; undefined when no longer this consumer's (another took and finished it). */
  deliveries(messages: readonly M[]): Promise<Array<number | undefined>>;
  /** After a failed pull: declare again what may be gone, take back what a dead taker left. */
  recover?(): Promise<void>;
  /** Ends a pull in progress; called once, when the consumer stops. */
  stop?(): void;
}
