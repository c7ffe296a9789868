import { BillingEnv, WalletStore } from '@gateway/billing';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BILLING_ENV } from '../billing/wallet.module';

/**
 * Releases holds whose request never ended (its process died, say): every interval, each hold past its
 * deadline goes back through the same release script as a failed request, ledger event included.
 * Releases are idempotent, so several accounts replicas may sweep at once.
 */
@Injectable()
export class HoldSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HoldSweeper.name);
  private timer?: NodeJS.Timeout;
  private sweeping: Promise<number> = Promise.resolve(0);

  constructor(
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Inject(BILLING_ENV) private readonly env: BillingEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.sweeping = this.sweeping
        .then(() => this.sweep())
        .catch((error: Error) => {
          this.logger.error(`sweep failed: ${error.message}`);
          return 0;
        });
    }, this.env.BILLING_SWEEP_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }

  async sweep(now = Date.now()): Promise<number> {
    let released = 0;
    for (;;) {
      const due = await this.wallet.dueHolds(now);
      if (due.length === 0) return released;
      for (const requestId of due) if (await this.wallet.release(requestId, 'expired')) released++;
      if (due.length < 500) return released;
    }
  }
}
