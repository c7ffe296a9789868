import { BillingClient } from '@gateway/billing';
import { encodeJson, NatsBus } from '@gateway/platform';
import { Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { nanos, RetentionPolicy, StorageType, type JetStreamClient } from 'nats';
import { usageStreamNames, type UsageEvent } from './usage-event.schema';

const WEEK_NS = nanos(7 * 24 * 3600 * 1000);
const PUBLISH_ATTEMPTS = 5;

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
 * the usage consumer applies it, so holds end from the durable record, in batches, off the hot path.
 */
@Injectable()
export class UsagePublisher implements OnModuleInit, OnModuleDestroy {
  private js!: JetStreamClient;
  private batch: UsageEvent[] = [];
  private flushQueued = false;
  readonly names: ReturnType<typeof usageStreamNames>;

  private readonly logger = new Logger(UsagePublisher.name);

  constructor(
    private readonly bus: NatsBus,
    @Optional() private readonly billing?: BillingClient,
  ) {
    this.names = usageStreamNames(bus.prefix);
    bus.beforeReply.register(() => this.flush());
  }

  async onModuleInit(): Promise<void> {
    const jsm = await this.bus.connection.jetstreamManager();
    const { stream, subject } = this.names;
    try {
      await jsm.streams.info(stream);
    } catch {
      await jsm.streams
        .add({ name: stream, subjects: [subject], retention: RetentionPolicy.Workqueue, storage: StorageType.File, max_age: WEEK_NS })
        .catch(async (error: unknown) => {
          // Another replica may have created it first.
          await jsm.streams.info(stream).catch(() => Promise.reject(error));
        });
    }
    this.js = this.bus.connection.jetstream();
  }

  onModuleDestroy(): void {
    this.flush();
  }

  /** Records a request's usage (exactly once per request); it is on the connection before the next reply. */
  record(event: UsageEvent): void {
    const settlement = this.billing?.settlementFor(event);
    this.batch.push(settlement ? { ...event, settlement } : event);
    if (!this.flushQueued) {
      this.flushQueued = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes the pending events as one message onto the connection (synchronously: js.publish queues before its first await). */
  flush(): void {
    this.flushQueued = false;
    if (this.batch.length === 0) return;
    const events = this.batch;
    this.batch = [];
    const data = encodeJson({ events });
    const msgID = `${events[0]!.requestId}+${events.length}`;
    void this.confirm(msgID, events, data, this.publish(msgID, data));
  }

  private publish(msgID: string, data: Uint8Array) {
    return this.js.publish(this.names.subject, data, { msgID, expect: { streamName: this.names.stream } });
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
