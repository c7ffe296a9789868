import { gatewayMetrics } from '@gateway/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { USAGE_FOLD_ENV, type UsageFoldEnv } from './usage-fold-env';
import { UsageFoldRepository, type FoldResult } from './usage-fold.repository';

/**
 * Folds usage into the hourly rollup every interval, off the request path. Any number of accounts
 * replicas may run it: one folds, the others find the lock taken and wait for their next turn.
 */
@Injectable()
export class UsageFolder implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UsageFolder.name);
  private timer?: NodeJS.Timeout;
  private folding: Promise<FoldResult | null> = Promise.resolve(null);

  constructor(
    @Inject(UsageFoldRepository) private readonly repository: UsageFoldRepository,
    @Inject(USAGE_FOLD_ENV) private readonly env: UsageFoldEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.fold(), this.env.USAGE_FOLD_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.folding;
  }

  /** One fold after any still running; a failure is logged and the next turn tries again. */
  fold(): Promise<FoldResult | null> {
    this.folding = this.folding
      .then(() => this.repository.fold())
      .then(async (result) => {
        if (result) {
          gatewayMetrics.usageFoldedAt.set(Date.now() / 1000);
          gatewayMetrics.usageFoldedRows.inc(result.rows);
          await this.repository.summarizeNewRanges().catch((error: Error) => this.logger.warn(`summarizing new BRIN ranges failed: ${error.message}`));
        }
        return result;
      })
      .catch((error: Error) => {
        this.logger.error(`usage fold failed: ${error.message}`);
        return null;
      });
    return this.folding;
  }
}
