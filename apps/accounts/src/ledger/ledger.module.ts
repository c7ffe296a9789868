// Owns the durable ledger: the consumer writing wallet events into ledger rows and balances, and the
// sweeper releasing holds of requests that died.
import { Module } from '@nestjs/common';
import { HoldSweeper } from './hold.sweeper';
import { LedgerConsumer } from './ledger.consumer';
import { LedgerRepository } from './ledger.repository';

@Module({ providers: [LedgerRepository, LedgerConsumer, HoldSweeper], exports: [LedgerConsumer, HoldSweeper, LedgerRepository] })
export class LedgerModule {}
