import { BillingClient } from '@gateway/billing';
import { decodeJson, NatsBus } from '@gateway/platform';
import { Injectable, Logger, Optional, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AckPolicy, nanos, type JetStreamClient, type JsMsg } from 'nats';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageBatch, type UsageEvent } from './usage-event.schema';
import { UsagePublisher } from './usage.publisher';
import { UsageRepository } from './usage.repository';

/** Messages taken per pull; each holds the events of one publisher turn. */
const BATCH = 256;
/** After a short pull, wait this long before the next: fewer, larger writes, off the hot path. */
const LINGER_MS = 50;

/**
 * The durable consumer that ends billing holds and writes usage rows. It pulls what the stream holds
 * (one burst per pull, never one wake-up per message), settles the batch's holds in one round of
 * Redis script calls, writes its rows in one INSERT, and only then acknowledges: a crash mid-way
 * redelivers the messages, and both steps skip what they already did (a hold ends once; the requestId
 * key skips a duplicate row).
 */
@Injectable()
export class UsageConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UsageConsumer.name);
  private js?: JetStreamClient;
  private running = false;
  private readonly stopped = new AbortController();
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly bus: NatsBus,
    private readonly publisher: UsagePublisher,
    private readonly repository: UsageRepository,
    @Optional() private readonly billing?: BillingClient,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { stream, durable } = this.publisher.names;
    const jsm = await this.bus.connection.jetstreamManager();
    await jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000), max_ack_pending: 10_000 });
    this.js = this.bus.connection.jetstream();
    this.running = true;
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.stopped.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let taken = 0;
      try {
        const batch = await this.pull();
        taken = batch.length;
        if (taken) await this.write(batch);
      } catch (error) {
        if (this.running) this.logger.error(`usage pull failed, retrying: ${(error as Error).message}`);
      }
      if (taken < BATCH) await sleep(LINGER_MS, undefined, { signal: this.stopped.signal }).catch(() => undefined);
    }
  }

  /** Everything the stream has for this consumer now (redeliveries included), up to BATCH, in one burst. */
  private async pull(): Promise<JsMsg[]> {
    const { stream, durable } = this.publisher.names;
    // The pull-with-no-wait request is only on the classic API: it answers at once with what is there.
    const messages = this.js!.fetch(stream, durable, { batch: BATCH, no_wait: true });
    const batch: JsMsg[] = [];
    for await (const msg of messages) batch.push(msg);
    return batch;
  }

  private async write(batch: JsMsg[]): Promise<void> {
    const events: UsageEvent[] = [];
    const accepted: JsMsg[] = [];
    for (const msg of batch) {
      const parsed = UsageBatch.safeParse(decodeJson(msg.data));
      if (parsed.success) {
        events.push(...parsed.data.events);
        accepted.push(msg);
      } else {
        this.logger.error(`dropping a malformed usage message: ${parsed.error.message}`);
        msg.term();
      }
    }
    try {
      const settlements = events.flatMap((e) => (e.settlement ? [{ requestId: e.requestId, settlement: e.settlement }] : []));
      if (settlements.length) {
        if (!this.billing) throw new Error('usage carries billing settlements but billing is not configured here');
        await this.billing.applySettlements(settlements);
      }
      if (events.length) await this.repository.insertMany(events);
      for (const msg of accepted) msg.ack();
    } catch (error) {
      this.logger.error(`usage write failed, will be redelivered: ${(error as Error).message}`);
      for (const msg of accepted) msg.nak(1000);
    }
  }
}
