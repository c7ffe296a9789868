import { LedgerEvent, WalletEventReader, WalletKeys } from '@gateway/billing';
import { DEAD_LETTER_MAX_DELIVERIES } from '@gateway/contracts';
import { BatchConsumer, watchRedis } from '@gateway/platform';
import { Inject, Injectable, Logger, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { hostname } from 'node:os';
import { AlertTrigger } from '../alerts/alert-trigger';
import { WALLET_REDIS } from '../billing/wallet.module';
import { DeadLetterService } from '../dead-letters/dead-letter.service';
import { LedgerService } from './ledger.service';
import { WalletEventSource, type WalletEventMessage } from './wallet-events.source';

const BATCH = 1000;
/** A read with nothing to take blocks this long: the read itself is the idle wait. */
const BLOCK_MS = 500;
/** Entries another consumer has held this long without acknowledging are taken over (it crashed). */
const CLAIM_IDLE_MS = 30_000;
/** After a short read, wait this long before the next: fewer, larger transactions off the hot path. */
const LINGER_MS = 250;
/** Entries Postgres refused are taken back and written again after this long, until their last delivery. */
const RETRY_DELAY_MS = 1000;

/**
 * Turns the wallet's event stream into ledger rows: reads a batch, hands it to the ledger service,
 * then acknowledges what was written. A crash before the acknowledgement leaves the batch pending, to
 * be written again (idempotently) by this or another replica; a refused entry is retried alone and
 * dead-lettered on its last delivery.
 */
@Injectable()
export class LedgerConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly reader: WalletEventReader;
  /** A blocking read holds its connection: the consumer gets one of its own. */
  private readonly redis: Redis;
  private readonly consumer: BatchConsumer<LedgerEvent, WalletEventMessage>;

  constructor(
    @Inject(WALLET_REDIS) shared: Redis,
    @Inject(WalletKeys) keys: WalletKeys,
    @Inject(LedgerService) ledger: LedgerService,
    @Inject(DeadLetterService) deadLetters: DeadLetterService,
    @Optional() @Inject(AlertTrigger) alerts: AlertTrigger | null = null,
  ) {
    this.redis = watchRedis(shared.duplicate(), 'ledger');
    this.reader = new WalletEventReader(this.redis, keys, `${hostname()}-${process.pid}`);
    this.consumer = new BatchConsumer({
      name: 'ledger',
      source: new WalletEventSource(this.reader, { blockMs: BLOCK_MS, claimIdleMs: CLAIM_IDLE_MS }),
      schema: LedgerEvent,
      // Alerts are judged beside the consumer once a batch is written; the batch does not wait for them.
      handle: async (events) => {
        const refused = await ledger.append(events);
        alerts?.notice(events);
        return refused;
      },
      deadLetter: (record) => deadLetters.record({ consumer: 'ledger', source: keys.events, ...record }),
      batch: BATCH,
      lingerMs: LINGER_MS,
      // The blocking read waits when the stream is empty; no sleep on top of it.
      idleWaitMs: 0,
      retryDelayMs: RETRY_DELAY_MS,
      maxDeliveries: DEAD_LETTER_MAX_DELIVERIES,
      logger: new Logger(LedgerConsumer.name),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reader.ensureGroup();
    this.consumer.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer.stop();
    this.redis.disconnect();
  }

  /** Writes everything currently readable, alongside the loop; resolves with how many entries it took. */
  drain(): Promise<number> {
    return this.consumer.drain();
  }
}
