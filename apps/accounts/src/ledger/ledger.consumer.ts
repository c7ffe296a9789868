import { WalletEventReader, WalletKeys, type StreamEntry } from '@gateway/billing';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { hostname } from 'node:os';
import { WALLET_REDIS } from '../billing/wallet.module';
import { LedgerRepository } from './ledger.repository';

const BATCH = 1000;
const BLOCK_MS = 500;
/** Entries another consumer has held this long without acknowledging are taken over (it crashed). */
const CLAIM_IDLE_MS = 30_000;
/** After a short read, wait this long for more before writing: fewer, larger transactions off the hot path. */
const LINGER_MS = 250;

/**
 * Turns the wallet's event stream into ledger rows: reads a batch, writes it in one transaction,
 * then acknowledges. A crash before the acknowledgement leaves the batch pending, to be written again
 * (idempotently) by this or another replica.
 */
@Injectable()
export class LedgerConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LedgerConsumer.name);
  private readonly reader: WalletEventReader;
  /** A blocking read holds its connection: the consumer gets one of its own. */
  private readonly redis: Redis;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    @Inject(WALLET_REDIS) shared: Redis,
    @Inject(WalletKeys) keys: WalletKeys,
    @Inject(LedgerRepository) private readonly ledger: LedgerRepository,
  ) {
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
    await this.ledger.append(events);
    await this.reader.ack(entries.map((entry) => entry.id));
    return entries.length;
  }
}
