import { BillingClient } from '@gateway/billing';
import { encodeJson, NatsBus } from '@gateway/platform';
import { Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { nanos, RetentionPolicy, StorageType, type JetStreamClient } from 'nats';
import { usageStreamNames, type UsageEvent } from './usage-event.schema';

const WEEK_NS = nanos(7 * 24 * 3600 * 1000);
const PUBLISH_ATTEMPTS = 5;

/**
 * Makes usage durable: each event goes to a JetStream stream (file storage). `record` writes the publish
 * onto the NATS connection before it returns, so it always travels ahead of the reply that the caller sends
 * next on the same connection: once a client has its answer, the server already holds the usage event, and a
 * crash of this process afterwards loses nothing. The acknowledgement is awaited off the reply path; a
 * refused publish is retried with the same msgID (the stream dedupes) and, if it keeps failing, logged.
 */
@Injectable()
export class UsagePublisher implements OnModuleInit {
  private js!: JetStreamClient;
  readonly names: ReturnType<typeof usageStreamNames>;

  private readonly logger = new Logger(UsagePublisher.name);

  constructor(
    private readonly bus: NatsBus,
    @Optional() private readonly billing?: BillingClient,
  ) {
    this.names = usageStreamNames(bus.prefix);
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

  async record(event: UsageEvent): Promise<void> {
    // Every request ends here exactly once: its reservation is settled at this usage, or released on failure.
    // The reply does not wait for it; a crash before it lands leaves the hold to the sweeper.
    void this.billing?.finish(event).catch((error: Error) => this.logger.error(`settling ${event.requestId} failed: ${error.message}`));
    // js.publish queues the message synchronously (before its first await): do not add an await before it.
    const data = encodeJson(event);
    void this.confirm(event, data, this.publish(event, data));
  }

  private publish(event: UsageEvent, data: Uint8Array) {
    return this.js.publish(this.names.subject, data, { msgID: event.requestId, expect: { streamName: this.names.stream } });
  }

  private async confirm(event: UsageEvent, data: Uint8Array, first: Promise<unknown>): Promise<void> {
    let pending = first;
    for (let attempt = 1; ; attempt++) {
      try {
        await pending;
        return;
      } catch (error) {
        if (attempt === PUBLISH_ATTEMPTS) {
          this.logger.error(`usage of ${event.requestId} was not stored: ${(error as Error).message}`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
        pending = this.publish(event, data);
      }
    }
  }
}
