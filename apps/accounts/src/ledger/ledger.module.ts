// Owns the durable ledger: the consumer writing wallet events into ledger rows and balances, the
// sweeper releasing holds of requests that died, and the wallet's rebuild after a change of Redis server.
import { Module } from '@nestjs/common';
import { BudgetsModule } from '../budgets/budgets.module';
import { DeadLettersModule } from '../dead-letters/dead-letters.module';
import { HoldSweeper } from './hold.sweeper';
import { LedgerConsumer } from './ledger.consumer';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { PrimaryChangeWatcher } from './primary-change.watcher';
import { WalletRebuildRepository } from './wallet-rebuild.repository';
import { WalletRebuildService } from './wallet-rebuild.service';

@Module({
  imports: [DeadLettersModule, BudgetsModule],
  providers: [LedgerRepository, LedgerService, LedgerConsumer, HoldSweeper, WalletRebuildRepository, WalletRebuildService, PrimaryChangeWatcher],
  exports: [LedgerConsumer, HoldSweeper, LedgerRepository, WalletRebuildService],
})
export class LedgerModule {}
