// Owns usage records: the durable consumer of the chat service's usage events, the service recording
// them (rows, and the billing holds each event ends), the only writer of usage_records, and the fold of
// records and their charges into the hourly rollup that summaries read.
import { loadEnv } from '@gateway/platform';
import { Module } from '@nestjs/common';
import { DeadLettersModule } from '../dead-letters/dead-letters.module';
import { LedgerModule } from '../ledger/ledger.module';
import { USAGE_FOLD_ENV, UsageFoldEnv } from './fold/usage-fold-env';
import { UsageFoldRepository } from './fold/usage-fold.repository';
import { UsageFolder } from './fold/usage-folder';
import { UsageConsumer } from './usage.consumer';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

@Module({
  imports: [LedgerModule, DeadLettersModule],
  providers: [
    UsageRepository,
    UsageService,
    UsageConsumer,
    UsageFoldRepository,
    UsageFolder,
    { provide: USAGE_FOLD_ENV, useFactory: () => loadEnv(UsageFoldEnv) },
  ],
})
export class UsageModule {}
