import { formatMicros, GatewayError, type BalanceView } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { TenantsService } from '../tenants/tenants.service';
import { BalanceRepository } from './balance.repository';

function toBalanceView(tenant: string, micros: bigint): BalanceView {
  return { tenant, balance: formatMicros(micros), balanceMicros: micros.toString() };
}

@Injectable()
export class BalanceService {
  constructor(
    @Inject(BalanceRepository) private readonly balances: BalanceRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
  ) {}

  async topup(tenantSlug: string, amountMicros: bigint): Promise<BalanceView> {
    if (amountMicros <= 0n) throw GatewayError.invalid('a top-up amount must be greater than zero', 'amount');
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    return toBalanceView(tenant.slug, await this.balances.topup(tenant.id, amountMicros, 'operator top-up'));
  }

  async show(tenantSlug: string): Promise<BalanceView> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    return toBalanceView(tenant.slug, await this.balances.current(tenant.id));
  }
}
