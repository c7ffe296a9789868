// Owns budgets on keys and projects: their settings here, their counters in the wallet's Redis.
import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { TenantsModule } from '../tenants/tenants.module';
import { BudgetsHandler } from './budgets.handler';
import { BudgetsRepository } from './budgets.repository';
import { BudgetsService } from './budgets.service';

@Module({
  imports: [TenantsModule, EventsModule],
  controllers: [BudgetsHandler],
  providers: [BudgetsService, BudgetsRepository],
  exports: [BudgetsService],
})
export class BudgetsModule {}
