// Owns the durable ledger: the consumer writing wallet events into ledger rows and balances, and the
// sweeper releasing holds of requests that died.
import { Module } from '@nestjs/common';
import { DeadLettersModule } from '../dead-letters/dead-letters.module';
import { HoldSweeper } from './hold.sweeper';
import { LedgerConsumer } from './ledger.consumer';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';

@Module({
  imports: [DeadLettersModule],
  providers: [LedgerRepository, LedgerService, LedgerConsumer, HoldSweeper],
  exports: [LedgerConsumer, HoldSweeper, LedgerRepository],
})
export class LedgerModule {}
