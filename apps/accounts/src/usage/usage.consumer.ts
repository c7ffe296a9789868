import { DEAD_LETTER_MAX_DELIVERIES, USAGE_RETENTION_MS, UsageBatch, usageStreamNames } from '@gateway/contracts';
import { BatchConsumer, ensureWorkQueueStream, JetStreamBatchSource, NatsBus, type JetStreamMessage } from '@gateway/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AckPolicy, nanos } from 'nats';
import { DeadLetterService } from '../dead-letters/dead-letter.service';
import { UsageService } from './usage.service';

/** Messages taken per pull; each holds the events of one publisher turn. */
const BATCH = 256;
/** After a short pull, wait this long before the next: fewer, larger writes, off the hot path. */
const LINGER_MS = 50;
/** Each empty pull doubles the wait, up to this: an idle stream is polled a few times a second, not twenty. */
const IDLE_WAIT_MS = 200;
/** A pull the server never answers (its stream or consumer gone) is given up after this long. */
const PULL_TIMEOUT_MS = 5000;
/** A message holding an event Postgres refused is delivered again after this long, until its last delivery. */
const RETRY_DELAY_MS = 1000;

/**
 * The durable consumer of the chat service's usage events, in this process so that none of their
 * writing runs on an event loop that serves requests: it pulls what the stream holds (one burst per
 * pull, never one wake-up per message) and hands each batch to the usage service, acknowledging only
 * what was written; a message holding a refused event is dead-lettered on its last delivery.
 */
@Injectable()
export class UsageConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  readonly names: ReturnType<typeof usageStreamNames>;
  private readonly source: JetStreamBatchSource;
  private readonly consumer: BatchConsumer<UsageBatch, JetStreamMessage>;

  constructor(
    @Inject(NatsBus) private readonly bus: NatsBus,
    @Inject(UsageService) usage: UsageService,
    @Inject(DeadLetterService) deadLetters: DeadLetterService,
  ) {
    this.names = usageStreamNames(bus.prefix);
    const { stream, durable } = this.names;
    this.source = new JetStreamBatchSource(bus.connection, { stream, durable, pullTimeoutMs: PULL_TIMEOUT_MS, declare: () => this.declare() });
    this.consumer = new BatchConsumer({
      name: 'usage',
      source: this.source,
      schema: UsageBatch,
      handle: (batches) => usage.record(batches),
      deadLetter: (record) => deadLetters.record({ consumer: 'usage', source: stream, ...record }),
      batch: BATCH,
      lingerMs: LINGER_MS,
      idleWaitMs: IDLE_WAIT_MS,
      retryDelayMs: RETRY_DELAY_MS,
      maxDeliveries: DEAD_LETTER_MAX_DELIVERIES,
      logger: new Logger(UsageConsumer.name),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.source.open();
    this.consumer.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer.stop();
  }

  /** The stream and the durable consumer; both calls leave an existing one as it is. */
  private async declare(): Promise<void> {
    const { stream, subject, durable } = this.names;
    await ensureWorkQueueStream(this.bus.connection, stream, subject, USAGE_RETENTION_MS);
    const jsm = await this.bus.connection.jetstreamManager();
    await jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000), max_ack_pending: 10_000 });
  }
}
