// Owns the readable books: a tenant's ledger with running balances, and reconciliation of ledger,
// stored balances, the live wallet and usage records.
import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { LedgerViewService } from './ledger-view.service';
import { MoneyHandler } from './money.handler';
import { MoneyRepository } from './money.repository';
import { BudgetCheck } from './budget-check';
import { QuotaCheck } from './quota-check';
import { ReconcileService } from './reconcile.service';
import { ReconcileStatusHandler } from './reconcile-status.handler';
import { ReconcileStatusService } from './reconcile-status.service';
import { WalletInspector } from './wallet-inspector';

@Module({
  imports: [TenantsModule],
  controllers: [MoneyHandler, ReconcileStatusHandler],
  providers: [MoneyRepository, WalletInspector, QuotaCheck, BudgetCheck, LedgerViewService, ReconcileService, ReconcileStatusService],
})
export class MoneyModule {}
