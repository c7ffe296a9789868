// Owns operator top-ups and balance views; the ledger is append-only and the balance row a cache of it.
import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { BalanceHandler } from './balance.handler';
import { BalanceRepository } from './balance.repository';
import { BalanceService } from './balance.service';

@Module({ imports: [TenantsModule], controllers: [BalanceHandler], providers: [BalanceService, BalanceRepository] })
export class BalanceModule {}
