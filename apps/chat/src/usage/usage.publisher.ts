import { BillingClient } from '@gateway/billing';
import { encodeJson, NatsBus } from '@gateway/platform';
import { Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { nanos, RetentionPolicy, StorageType, type JetStreamClient } from 'nats';
import { usageStreamNames, type UsageEvent } from './usage-event.schema';

const WEEK_NS = nanos(7 * 24 * 3600 * 1000);

/**
 * Makes usage durable: each event is stored by JetStream (file storage) and acknowledged before the
 * caller finishes its reply, so a crash afterwards loses nothing. The msgID dedupes retried publishes.
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
    await this.js.publish(this.names.subject, encodeJson(event), { msgID: event.requestId, expect: { streamName: this.names.stream } });
  }
}
