import { WalletEventReader, WalletKeys, type LedgerEvent, type StreamEntry } from '@gateway/billing';
import { DEAD_LETTER_MAX_DELIVERIES } from '@gateway/contracts';
import { isRecordError } from '@gateway/db';
import { writeIsolatingFailures } from '@gateway/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { hostname } from 'node:os';
import { WALLET_REDIS } from '../billing/wallet.module';
import { DeadLetterService } from '../dead-letters/dead-letter.service';
import { LedgerRepository } from './ledger.repository';

const BATCH = 1000;
const BLOCK_MS = 500;
/** Entries another consumer has held this long without acknowledging are taken over (it crashed). */
const CLAIM_IDLE_MS = 30_000;
/** After a short read, wait this long for more before writing: fewer, larger transactions off the hot path. */
const LINGER_MS = 250;
/** Entries Postgres refused are taken back and written again after this long, until their last delivery. */
const RETRY_DELAY_MS = 1000;

/**
 * Turns the wallet's event stream into ledger rows: reads a batch, writes it in one transaction,
 * then acknowledges. A crash before the acknowledgement leaves the batch pending, to be written again
 * (idempotently) by this or another replica. When Postgres refuses the batch because of an entry, the
 * batch is bisected so that every other entry is written; a refused entry stays pending and is retried,
 * and on its last delivery it goes to the dead-letter stream and is acknowledged.
 */
@Injectable()
export class LedgerConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LedgerConsumer.name);
  private readonly reader: WalletEventReader;
  /** A blocking read holds its connection: the consumer gets one of its own. */
  private readonly redis: Redis;
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  /** Entries refused by Postgres, still pending, to be taken back at `retryAt`. */
  private retrying = new Set<string>();
  private retryAt = 0;
  private readonly source: string;

  constructor(
    @Inject(WALLET_REDIS) shared: Redis,
    @Inject(WalletKeys) keys: WalletKeys,
    @Inject(LedgerRepository) private readonly ledger: LedgerRepository,
    @Inject(DeadLetterService) private readonly deadLetters: DeadLetterService,
  ) {
    this.source = keys.events;
    this.redis = shared.duplicate();
    this.reader = new WalletEventReader(this.redis, keys, `${hostname()}-${process.pid}`);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reader.ensureGroup();
    this.running = true;
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.loop;
    this.redis.disconnect();
  }

  /** Writes everything currently readable (tests and shutdown use it to wait for the ledger). */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const written = await this.writeBatch(await this.reader.read(BATCH, 1));
      if (written === 0) return total;
      total += written;
    }
  }

  private async run(): Promise<void> {
    let stale = true;
    while (this.running) {
      try {
        if (this.retrying.size > 0 && Date.now() >= this.retryAt) {
          const ids = [...this.retrying];
          this.retrying = new Set();
          await this.writeBatch(await this.reader.reclaim(ids));
          continue;
        }
        const entries: StreamEntry[] = stale ? await this.reader.claimStale(CLAIM_IDLE_MS, BATCH) : await this.readLingering();
        stale = stale && entries.length === BATCH;
        await this.writeBatch(entries);
      } catch (error) {
        if (!this.running) return;
        this.logger.error(`ledger write failed, retrying: ${(error as Error).message}`);
        stale = true;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async readLingering(): Promise<StreamEntry[]> {
    const entries = await this.reader.read(BATCH, BLOCK_MS);
    if (entries.length === 0 || entries.length >= BATCH) return entries;
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS));
    return entries.concat(await this.reader.read(BATCH - entries.length, 1));
  }

  private async writeBatch(entries: StreamEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const events = entries.flatMap((entry) => (entry.event ? [entry.event] : []));
    if (events.length < entries.length) this.logger.error(`skipping ${entries.length - events.length} malformed wallet events`);
    const readable = entries.filter((entry): entry is StreamEntry & { event: LedgerEvent } => entry.event !== null);
    const refused = await writeIsolatingFailures(readable, (part) => this.ledger.append(part.map((entry) => entry.event)), isRecordError);
    const held = await this.holdOrDeadLetter(refused.map((f) => ({ entry: f.item, error: f.error })));
    await this.reader.ack(entries.filter((entry) => !held.has(entry.id)).map((entry) => entry.id));
    return entries.length - held.size;
  }

  /**
   * Of the refused entries, dead-letters those on their last delivery (to be acknowledged with the
   * rest) and returns the ids of the others, which stay pending for a retry.
   */
  private async holdOrDeadLetter(refused: Array<{ entry: StreamEntry & { event: LedgerEvent }; error: Error }>): Promise<Set<string>> {
    const held = new Set<string>();
    if (refused.length === 0) return held;
    const deliveries = await this.reader.deliveries(refused.map((f) => f.entry.id));
    for (const { entry, error } of refused) {
      const delivered = deliveries.get(entry.id);
      // No longer pending: another replica wrote and acknowledged it meanwhile.
      if (delivered === undefined) continue;
      if (delivered >= DEAD_LETTER_MAX_DELIVERIES) {
        await this.deadLetters.record({ consumer: 'ledger', source: this.source, error: `${entry.id}: ${error.message}`, deliveries: delivered, payload: JSON.stringify(entry.event) });
      } else {
        this.logger.error(`ledger write refused entry ${entry.id}, delivery ${delivered} of ${DEAD_LETTER_MAX_DELIVERIES}: ${error.message}`);
        held.add(entry.id);
        this.retrying.add(entry.id);
      }
    }
    this.retryAt = Date.now() + RETRY_DELAY_MS;
    return held;
  }
}
