import { decodeJson, NatsBus } from '@gateway/platform';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AckPolicy, nanos, type ConsumerMessages, type JsMsg } from 'nats';
import { UsageEvent } from './usage-event.schema';
import { UsagePublisher } from './usage.publisher';
import { UsageRepository } from './usage.repository';

const BATCH = 256;
/** Rows are written in batches: fewer round trips, and less work competing with requests in flight. */
const FLUSH_DELAY_MS = 50;

/**
 * The durable consumer that turns usage events into rows: messages are acknowledged only after their
 * batch is written, so a crash mid-way redelivers them and the requestId key skips any duplicate.
 */
@Injectable()
export class UsageConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UsageConsumer.name);
  private messages?: ConsumerMessages;
  private pending: JsMsg[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(
    private readonly bus: NatsBus,
    private readonly publisher: UsagePublisher,
    private readonly repository: UsageRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { stream, durable } = this.publisher.names;
    const jsm = await this.bus.connection.jetstreamManager();
    await jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000), max_ack_pending: 10_000 });
    const consumer = await this.bus.connection.jetstream().consumers.get(stream, durable);
    this.messages = await consumer.consume({ max_messages: BATCH });
    void this.pump(this.messages);
  }

  async onModuleDestroy(): Promise<void> {
    await this.messages?.close();
    await this.flushing;
  }

  private async pump(messages: ConsumerMessages): Promise<void> {
    for await (const msg of messages) {
      this.pending.push(msg);
      if (this.pending.length >= BATCH) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => this.flush(), FLUSH_DELAY_MS);
      }
    }
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.flushing = this.flushing.then(() => this.write(batch));
  }

  private async write(batch: JsMsg[]): Promise<void> {
    const events: UsageEvent[] = [];
    const accepted: JsMsg[] = [];
    for (const msg of batch) {
      const parsed = UsageEvent.safeParse(decodeJson(msg.data));
      if (parsed.success) {
        events.push(parsed.data);
        accepted.push(msg);
      } else {
        this.logger.error(`dropping a malformed usage event: ${parsed.error.message}`);
        msg.term();
      }
    }
    try {
      if (events.length) await this.repository.insertMany(events);
      for (const msg of accepted) msg.ack();
    } catch (error) {
      this.logger.error(`usage write failed, will be redelivered: ${(error as Error).message}`);
      for (const msg of accepted) msg.nak(1000);
    }
  }
}
