import { BillingClient } from '@gateway/billing';
import { REPLY_LOST_OUTCOME, USAGE_RETENTION_MS, usageStreamNames, type LeaseClose, type ReplyNote, type UsageEvent } from '@gateway/contracts';
import { encodeJson, ensureWorkQueueStream, gatewayMetrics, NatsBus, onScrape, publishToStream, replyLostFor } from '@gateway/platform';
import { Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { observeUsage } from './usage-observer';

const PUBLISH_ATTEMPTS = 5;

/** Outcomes of a request whose upstream answered: billed, and reply_lost when the reply will not arrive. */
const ANSWERED = new Set(['ok', 'cache_hit', 'cancelled']);

/** The event as it is recorded: reply_lost (billed, 503 at the edge) when the bus link dropped under an answered request. */
function withReplyFate(event: UsageEvent, note: ReplyNote | undefined): UsageEvent {
  if (!ANSWERED.has(event.outcome) || !replyLostFor(note)) return event;
  return { ...event, outcome: REPLY_LOST_OUTCOME, status: 503 };
}

/**
 * Makes usage durable: events go to a JetStream stream (file storage), batched per turn of the event
 * loop. The batch is written onto the NATS connection by the reply barrier, right before the transport
 * writes any reply, so it always travels ahead of the answers it accounts for on the same connection:
 * once a client has its answer, the server already holds the usage event, and a crash of this process
 * afterwards loses nothing. A batch no reply follows (a cancelled stream) goes out at the end of the
 * turn. The acknowledgement is awaited off the reply path; a refused publish is retried with the same
 * msgID (the stream dedupes) and, if it keeps failing, logged.
 *
 * Each event carries how its billing hold ends (the settlement decided here, where the hold was taken);
 * the accounts service's usage writer applies it, so holds end from the durable record, in batches, off
 * the hot path and outside this process.
 */
@Injectable()
export class UsagePublisher implements OnModuleInit, OnModuleDestroy {
  private batch: UsageEvent[] = [];
  private closes: LeaseClose[] = [];
  readonly names: ReturnType<typeof usageStreamNames>;

  private readonly logger = new Logger(UsagePublisher.name);

  constructor(
    private readonly bus: NatsBus,
    @Optional() private readonly billing?: BillingClient,
  ) {
    this.names = usageStreamNames(bus.prefix);
    if (billing) onScrape(async () => gatewayMetrics.holdsOpen.set(await billing.wallet.holdCount()));
    bus.beforeReply.register(() => this.flush());
    // A lease closes after its last request's draw: in the same batch (applied after the draws) or a later one.
    billing?.onLeaseClose((close) => {
      this.closes.push(close);
      this.queueFlush();
    });
  }

  async onModuleInit(): Promise<void> {
    await ensureWorkQueueStream(this.bus.connection, this.names.stream, this.names.subject, USAGE_RETENTION_MS);
  }

  onModuleDestroy(): void {
    this.billing?.retireLeases();
    this.flush();
  }

  /**
   * Records a request's usage (exactly once per request); it is on the connection before the next reply.
   * `note`, the request's reply note, is told the model, channel and tokens; through it the transport
   * tells whether the link dropped while the request was served.
   */
  record(answered: UsageEvent, note?: ReplyNote): void {
    const event = withReplyFate(answered, note);
    const settlement = this.billing?.settlementFor(event);
    observeUsage(event, settlement, note);
    this.batch.push(settlement ? { ...event, settlement } : event);
    this.queueFlush();
  }

  /** At the end of this turn, with the replies written then (the reply barrier's shared flush). */
  private queueFlush(): void {
    this.bus.beforeReply.schedule();
  }

  /** Writes the pending events as one message onto the connection, synchronously. */
  flush(): void {
    if (this.batch.length === 0 && this.closes.length === 0) return;
    const { batch: events, closes } = this;
    this.batch = [];
    this.closes = [];
    const data = encodeJson({ events, closes });
    const msgID = events.length ? `${events[0]!.requestId}+${events.length}+${closes.length}` : `close+${closes[0]!.lease}`;
    void this.confirm(msgID, events, data, this.publish(msgID, data));
  }

  private publish(msgID: string, data: Uint8Array) {
    return publishToStream(this.bus, this.names.subject, data, { stream: this.names.stream, msgID });
  }

  private async confirm(msgID: string, events: UsageEvent[], data: Uint8Array, first: Promise<unknown>): Promise<void> {
    let pending = first;
    for (let attempt = 1; ; attempt++) {
      try {
        await pending;
        return;
      } catch (error) {
        if (attempt === PUBLISH_ATTEMPTS) {
          this.logger.error(`usage of ${events.map((e) => e.requestId).join(', ')} was not stored: ${(error as Error).message}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        pending = this.publish(msgID, data);
      }
    }
  }
}
