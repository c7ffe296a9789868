import { createInbox, type Msg, type NatsConnection, type Subscription } from 'nats';
import { encodeText } from './codec';

/** A message taken from a durable JetStream consumer, acknowledged by its taker. */
export interface PulledMessage {
  readonly data: Uint8Array;
  /** How many times the server has delivered it, this time included. */
  readonly deliveries: number;
  ack(): void;
  /** Asks for redelivery after `delayMs`. */
  nak(delayMs: number): void;
  /** Never delivers it again. */
  term(): void;
}

const ACK = encodeText('+ACK');
const TERM = encodeText('+TERM');
/** The server's answers that end a pull: no messages (404), the rest of the batch not there (408). */
const PULL_OVER = new Set([404, 408]);

/**
 * The delivery count in a JetStream message's ack subject: `$JS.ACK.<stream>.<consumer>.<delivered>.…`
 * (9 tokens), or with a domain and account hash ahead of the stream (12 tokens or more).
 */
export function deliveriesOf(reply: string | undefined): number {
  const tokens = reply?.split('.') ?? [];
  if (tokens[0] !== '$JS' || tokens[1] !== 'ACK') return 1;
  const delivered = Number(tokens.length === 9 ? tokens[4] : tokens[6]);
  return Number.isInteger(delivered) && delivered > 0 ? delivered : 1;
}

function pulled(msg: Msg): PulledMessage {
  return {
    data: msg.data,
    deliveries: deliveriesOf(msg.reply),
    ack: () => msg.respond(ACK),
    nak: (delayMs) => msg.respond(encodeText(`-NAK ${JSON.stringify({ delay: delayMs * 1_000_000 })}`)),
    term: () => msg.respond(TERM),
  };
}

/**
 * Takes what a durable pull consumer holds, in batches, over one inbox subscription that lives as long
 * as the puller. Each pull asks for up to `batch` messages without waiting for new ones, and ends when
 * the server says it is over (its 404 or 408 status) or the batch is full. A message the server
 * delivers after that (it can send one more that was stored while it answered) stays in the inbox's
 * buffer and comes with the next pull, instead of being dropped and redelivered only after the
 * consumer's ack wait. No subscription per pull.
 */
export class BatchPuller {
  /** The subject the server delivers this puller's messages to. */
  readonly inbox = createInbox();
  private readonly subscription: Subscription;
  private readonly nextSubject: string;
  private buffer: Msg[] = [];
  private current?: { wanted: number; received: number; end: (error?: Error) => void };

  constructor(
    private readonly connection: NatsConnection,
    stream: string,
    durable: string,
  ) {
    this.nextSubject = `$JS.API.CONSUMER.MSG.NEXT.${stream}.${durable}`;
    this.subscription = connection.subscribe(this.inbox, { callback: (error, msg) => (error ? this.current?.end(error) : this.take(msg)) });
  }

  /**
   * One pull: what the consumer holds now, up to `batch`, with anything that came late to an earlier
   * pull. Fails after `timeoutMs` without an answer (the server does not answer a pull for a stream or
   * consumer that is gone), on an error status, or when the puller stops.
   */
  async pull(batch: number, timeoutMs: number): Promise<PulledMessage[]> {
    if (this.current) throw new Error('a pull is already in progress');
    if (this.subscription.isClosed()) throw new Error('the puller is stopped');
    const wanted = batch - this.buffer.length;
    if (wanted > 0) {
      await new Promise<void>((resolve, reject) => {
        const watchdog = setTimeout(() => this.current?.end(new Error(`no answer to a pull within ${timeoutMs} ms`)), timeoutMs);
        this.current = {
          wanted,
          received: 0,
          end: (error) => {
            clearTimeout(watchdog);
            this.current = undefined;
            if (error) reject(error);
            else resolve();
          },
        };
        this.connection.publish(this.nextSubject, encodeText(JSON.stringify({ batch: wanted, no_wait: true })), { reply: this.inbox });
      });
    }
    const taken = this.buffer.slice(0, batch);
    this.buffer = this.buffer.slice(taken.length);
    return taken.map(pulled);
  }

  /** Ends the pull in progress and the subscription; messages not taken are redelivered by the server. */
  stop(): void {
    if (!this.subscription.isClosed()) this.subscription.unsubscribe();
    this.current?.end(new Error('the puller is stopped'));
  }

  private take(msg: Msg): void {
    const code = msg.headers?.code ?? 0;
    if (code === 0) {
      this.buffer.push(msg);
      if (this.current && ++this.current.received >= this.current.wanted) this.current.end();
    } else if (PULL_OVER.has(code)) this.current?.end();
    // Below 300: informational (a heartbeat), which no-wait pulls do not ask for.
    else if (code >= 300) this.current?.end(new Error(`the pull was refused: ${code} ${msg.headers!.description}`));
  }
}
