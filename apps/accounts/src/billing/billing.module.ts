// Owns billing facts for other services and operators: tenant billing profiles, balance seeding,
// limits and custom subscription terms, usage summaries.
import { Module } from '@nestjs/common';
import { BudgetsModule } from '../budgets/budgets.module';
import { TenantsModule } from '../tenants/tenants.module';
import { BillingHandler } from './billing.handler';
import { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';

@Module({ imports: [TenantsModule, BudgetsModule], controllers: [BillingHandler], providers: [BillingService, BillingRepository], exports: [BillingService] })
export class BillingModule {}
