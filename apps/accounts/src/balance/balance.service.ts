import { WalletStore } from '@gateway/billing';
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
    @Inject(WalletStore) private readonly wallet: WalletStore,
  ) {}

  async topup(tenantSlug: string, amountMicros: bigint): Promise<BalanceView> {
    if (amountMicros <= 0n) throw GatewayError.invalid('a top-up amount must be greater than zero', 'amount');
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    // The live balance (Redis) moves first, seeded from the stored one, so a concurrent seed cannot count
    // the top-up twice; the stored ledger row follows, and a failed write takes the credit back.
    await this.wallet.credit(tenant.id, await this.balances.current(tenant.id), amountMicros);
    try {
      await this.balances.topup(tenant.id, amountMicros, 'operator top-up');
    } catch (error) {
      await this.wallet.credit(tenant.id, 0n, -amountMicros);
      throw error;
    }
    return this.show(tenantSlug);
  }

  async show(tenantSlug: string): Promise<BalanceView> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    // Redis holds the live spendable balance (reservations in flight already taken out); Postgres catches up.
    const live = await this.wallet.balance(tenant.id);
    return toBalanceView(tenant.slug, live ?? (await this.balances.current(tenant.id)));
  }
}
