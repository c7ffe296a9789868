// Owns usage records: the durable consumer of the chat service's usage events, the service recording
// them (rows, and the billing holds each event ends) and the only writer of usage_records.
import { Module } from '@nestjs/common';
import { DeadLettersModule } from '../dead-letters/dead-letters.module';
import { LedgerModule } from '../ledger/ledger.module';
import { UsageConsumer } from './usage.consumer';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';

@Module({ imports: [LedgerModule, DeadLettersModule], providers: [UsageRepository, UsageService, UsageConsumer] })
export class UsageModule {}
