import type { JetStreamManager, NatsConnection } from 'nats';
import { gatewayMetrics, onScrape } from '../observability/metrics';
import type { BatchSource, SourceMessage } from '../batch/batch-source';
import { BatchPuller, type PulledMessage } from './batch-puller';
import { decodeJson } from './codec';

export interface JetStreamMessage extends SourceMessage {
  readonly pulled: PulledMessage;
}

export interface JetStreamBatchSourceOptions {
  stream: string;
  durable: string;
  /** A pull the server never answers (its stream or consumer gone) is given up after this long. */
  pullTimeoutMs: number;
  /** Declares the stream and the durable consumer, leaving existing ones as they are: at start and after a failed pull. */
  declare(): Promise<void>;
}

/**
 * A durable JetStream pull consumer as a batch source: one long-lived inbox per source (see BatchPuller),
 * JSON bodies, the server's delivery count, a retry as a delayed NAK, an unreadable message TERMed.
 */
export class JetStreamBatchSource implements BatchSource<JetStreamMessage> {
  private puller?: BatchPuller;

  constructor(
    private readonly connection: NatsConnection,
    private readonly options: JetStreamBatchSourceOptions,
  ) {}

  /** Declares the stream and its consumer and opens the inbox; before the first pull. */
  async open(): Promise<void> {
    await this.options.declare();
    this.puller = new BatchPuller(this.connection, this.options.stream, this.options.durable);
    this.watchLag();
  }

  /** The consumer's lag (records not yet delivered to it), read from the server at each scrape. */
  private watchLag(): void {
    const { stream, durable } = this.options;
    let manager: Promise<JetStreamManager> | undefined;
    onScrape(async () => {
      if (this.connection.isClosed()) return;
      manager ??= this.connection.jetstreamManager();
      const info = await (await manager).consumers.info(stream, durable);
      gatewayMetrics.consumerLag.set({ consumer: durable }, info.num_pending);
    });
  }

  async pull(max: number): Promise<JetStreamMessage[]> {
    if (!this.puller) throw new Error('the source is not open');
    const pulled = await this.puller.pull(max, this.options.pullTimeoutMs);
    return pulled.map((message) => ({ pulled: message, body: bodyOf(message.data) }));
  }

  async ack(messages: readonly JetStreamMessage[]): Promise<void> {
    for (const { pulled } of messages) pulled.ack();
  }

  async retry(messages: readonly JetStreamMessage[], delayMs: number): Promise<void> {
    for (const { pulled } of messages) pulled.nak(delayMs);
  }

  async discard(messages: readonly JetStreamMessage[]): Promise<void> {
    for (const { pulled } of messages) pulled.term();
  }

  async deliveries(messages: readonly JetStreamMessage[]): Promise<number[]> {
    return messages.map(({ pulled }) => pulled.deliveries);
  }

  recover(): Promise<void> {
    return this.options.declare();
  }

  stop(): void {
    this.puller?.stop();
  }
}

/** Not JSON is as unreadable as the wrong shape: its schema refuses it, and it is discarded. */
function bodyOf(data: Uint8Array): unknown {
  try {
    return decodeJson(data);
  } catch {
    return undefined;
  }
}
