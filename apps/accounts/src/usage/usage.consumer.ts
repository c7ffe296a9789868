import { leaseDrawEvents, WalletStore } from '@gateway/billing';
import { DEAD_LETTER_MAX_DELIVERIES, USAGE_RETENTION_MS, UsageBatch, usageStreamNames, type LeaseClose, type UsageEvent } from '@gateway/contracts';
import { isRecordError } from '@gateway/db';
import { BatchPuller, decodeJson, ensureWorkQueueStream, NatsBus, writeIsolatingFailures, type IsolatedFailure, type PulledMessage } from '@gateway/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AckPolicy, nanos } from 'nats';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeadLetterService } from '../dead-letters/dead-letter.service';
import { LedgerRepository } from '../ledger/ledger.repository';
import { UsageRepository } from './usage.repository';

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
 * The durable consumer of the chat service's usage events: it ends billing holds (and draws charges
 * from leases, ledgering each, then closes the leases that ended with them) and writes usage rows,
 * in this process so that none of it runs on an event loop that serves requests. It pulls what the stream holds
 * (one burst per pull, never one wake-up per message), settles the batch's holds in one round of
 * Redis script calls, writes its rows in one INSERT, and only then acknowledges: a crash mid-way
 * redelivers the messages, and both steps skip what they already did (a hold ends once; the requestId
 * key skips a duplicate row). When Postgres refuses the INSERT because of a row, the batch is bisected so
 * that every other row is written and acknowledged; a message holding a refused event is delivered again,
 * and on its last delivery its refused events go to the dead-letter stream and it is acknowledged.
 */
@Injectable()
export class UsageConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UsageConsumer.name);
  private puller?: BatchPuller;
  private running = false;
  private readonly stopped = new AbortController();
  private loop: Promise<void> = Promise.resolve();

  readonly names: ReturnType<typeof usageStreamNames>;

  constructor(
    @Inject(NatsBus) private readonly bus: NatsBus,
    @Inject(UsageRepository) private readonly repository: UsageRepository,
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Inject(LedgerRepository) private readonly ledger: LedgerRepository,
    @Inject(DeadLetterService) private readonly deadLetters: DeadLetterService,
  ) {
    this.names = usageStreamNames(bus.prefix);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.declare();
    this.puller = new BatchPuller(this.bus.connection, this.names.stream, this.names.durable);
    this.running = true;
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.stopped.abort();
    this.puller?.stop();
    await this.loop;
  }

  /** The stream and the durable consumer; both calls leave an existing one as it is. */
  private async declare(): Promise<void> {
    const { stream, subject, durable } = this.names;
    await ensureWorkQueueStream(this.bus.connection, stream, subject, USAGE_RETENTION_MS);
    const jsm = await this.bus.connection.jetstreamManager();
    await jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000), max_ack_pending: 10_000 });
  }

  private async run(): Promise<void> {
    let wait = LINGER_MS;
    while (this.running) {
      let taken = 0;
      try {
        const batch = await this.pull();
        taken = batch.length;
        if (taken) await this.write(batch);
      } catch (error) {
        if (!this.running) break;
        this.logger.error(`usage pull failed, declaring the stream again and retrying: ${(error as Error).message}`);
        await this.declare().catch((declareError: Error) => this.logger.error(`usage stream declaration failed: ${declareError.message}`));
      }
      wait = taken === 0 ? Math.min(wait * 2, IDLE_WAIT_MS) : LINGER_MS;
      if (taken < BATCH) await sleep(wait, undefined, { signal: this.stopped.signal }).catch(() => undefined);
    }
  }

  /** Everything the stream has for this consumer now (redeliveries included), up to BATCH, in one burst. */
  private pull(): Promise<PulledMessage[]> {
    // The server does not answer a pull for a stream or consumer that is gone: the puller gives up on it.
    return this.puller!.pull(BATCH, PULL_TIMEOUT_MS);
  }

  private async write(batch: PulledMessage[]): Promise<void> {
    const events: UsageEvent[] = [];
    const closes: LeaseClose[] = [];
    const accepted: PulledMessage[] = [];
    const carriers = new Map<UsageEvent, PulledMessage>();
    for (const msg of batch) {
      const parsed = UsageBatch.safeParse(decodeJson(msg.data));
      if (parsed.success) {
        events.push(...parsed.data.events);
        for (const event of parsed.data.events) carriers.set(event, msg);
        closes.push(...parsed.data.closes);
        accepted.push(msg);
      } else {
        this.logger.error(`dropping a malformed usage message: ${parsed.error.message}`);
        msg.term();
      }
    }
    try {
      const draws = await this.wallet.applySettlements(events.flatMap((e) => (e.settlement ? [{ requestId: e.requestId, settlement: e.settlement }] : [])));
      // A lease's draws are ledgered here, with the usage rows, rather than through the wallet's event stream.
      await this.ledger.append(draws.flatMap(leaseDrawEvents));
      await this.wallet.closeLeases(closes);
      const refused = await writeIsolatingFailures(events, (part) => this.repository.insertMany([...part]), isRecordError);
      await this.finish(accepted, refused, carriers);
    } catch (error) {
      this.logger.error(`usage write failed, will be redelivered: ${(error as Error).message}`);
      for (const msg of accepted) msg.nak(RETRY_DELAY_MS);
    }
  }

  /**
   * Acknowledges each message whose events are all written. A message with a refused event is asked
   * for again; on its last delivery its refused events (as a batch of their own, replayable as it is)
   * are dead-lettered first, then it is acknowledged.
   */
  private async finish(accepted: PulledMessage[], refused: IsolatedFailure<UsageEvent>[], carriers: Map<UsageEvent, PulledMessage>): Promise<void> {
    const failures = new Map<PulledMessage, IsolatedFailure<UsageEvent>[]>();
    for (const failure of refused) {
      const msg = carriers.get(failure.item)!;
      failures.set(msg, [...(failures.get(msg) ?? []), failure]);
    }
    for (const [msg, failed] of failures) {
      if (msg.deliveries < DEAD_LETTER_MAX_DELIVERIES) continue;
      await this.deadLetters.record({
        consumer: 'usage',
        source: this.names.stream,
        error: failed.map((f) => `${f.item.requestId}: ${f.error.message}`).join('; '),
        deliveries: msg.deliveries,
        payload: JSON.stringify({ events: failed.map((f) => f.item), closes: [] }),
      });
    }
    for (const msg of accepted) {
      const failed = failures.get(msg);
      if (!failed || msg.deliveries >= DEAD_LETTER_MAX_DELIVERIES) msg.ack();
      else {
        this.logger.error(`usage write refused ${failed.length} event(s), delivery ${msg.deliveries} of ${DEAD_LETTER_MAX_DELIVERIES}: ${failed[0]!.error.message}`);
        msg.nak(RETRY_DELAY_MS);
      }
    }
  }
}
