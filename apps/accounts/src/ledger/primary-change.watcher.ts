import { isRedisFault } from '@gateway/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { WALLET_REDIS } from '../billing/wallet.module';
import { WalletRebuildService } from './wallet-rebuild.service';

/** How often the wallet's Redis server is compared with the one the wallet was found whole on. */
const CHECK_INTERVAL_MS = 1000;

/**
 * Notices a change of the wallet's Redis server (a Sentinel failover, a restart from disk) within a second,
 * and at once when the wallet's client links again, and has the wallet rebuilt before money moves again.
 */
@Injectable()
export class PrimaryChangeWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PrimaryChangeWatcher.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly onReady = () => void this.check();

  constructor(
    @Inject(WalletRebuildService) private readonly rebuild: WalletRebuildService,
    @Inject(WALLET_REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.check(), CHECK_INTERVAL_MS);
    this.redis.on('ready', this.onReady);
    void this.check();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.redis.off('ready', this.onReady);
    await this.running;
  }

  /** One check at a time; a Redis fault is already in the process's Redis state log. */
  check(): Promise<void> {
    this.running ??= this.rebuild
      .heal()
      .then(() => undefined)
      .catch((error: Error) => {
        if (!isRedisFault(error)) this.logger.error(`wallet check failed: ${error.message}`);
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
