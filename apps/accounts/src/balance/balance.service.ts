import { WalletStore } from '@gateway/billing';
import { formatMicros, GatewayError, MAX_MONEY_MICROS, type BalanceView } from '@gateway/contracts';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AlertTrigger } from '../alerts/alert-trigger';
import { TenantsService } from '../tenants/tenants.service';
import { BalanceRepository } from './balance.repository';

/**
 * The most a balance may hold: 1e12 units. Redis and Postgres keep micro-units in an int64 (9.2e18);
 * staying three orders below leaves room for every sum the billing scripts make on top of it.
 */
export const MAX_BALANCE_MICROS = 1_000_000_000_000n * 1_000_000n;

function toBalanceView(tenant: string, micros: bigint): BalanceView {
  return { tenant, balance: formatMicros(micros), balanceMicros: micros.toString() };
}

@Injectable()
export class BalanceService {
  constructor(
    @Inject(BalanceRepository) private readonly balances: BalanceRepository,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Optional() @Inject(AlertTrigger) private readonly alerts: AlertTrigger | null = null,
  ) {}

  async topup(tenantSlug: string, amountMicros: bigint): Promise<BalanceView> {
    if (amountMicros <= 0n) throw GatewayError.invalid('a top-up amount must be greater than zero', 'amount');
    if (amountMicros > MAX_MONEY_MICROS) throw GatewayError.invalid(`a top-up amount may be at most ${formatMicros(MAX_MONEY_MICROS)}`, 'amount');
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    const current = (await this.wallet.balance(tenant.id)) ?? (await this.balances.current(tenant.id));
    if (current + amountMicros > MAX_BALANCE_MICROS) {
      throw GatewayError.invalid(`this top-up would take the balance above the maximum of ${formatMicros(MAX_BALANCE_MICROS)}`, 'amount');
    }
    // The live balance (Redis) moves first, seeded from the stored one, so a concurrent seed cannot count
    // the top-up twice; the stored ledger row follows, and a failed write takes the credit back.
    await this.wallet.credit(tenant.id, await this.balances.current(tenant.id), amountMicros);
    try {
      await this.balances.topup(tenant.id, amountMicros, 'operator top-up');
    } catch (error) {
      await this.wallet.credit(tenant.id, 0n, -amountMicros);
      throw error;
    }
    // Back above its low-balance amount, the tenant's balance.low re-arms.
    this.alerts?.noticeBalance(tenant.id);
    return this.show(tenantSlug);
  }

  async show(tenantSlug: string): Promise<BalanceView> {
    const tenant = await this.tenants.requireBySlug(tenantSlug);
    // Redis holds the live spendable balance (reservations in flight already taken out); Postgres catches up.
    const live = await this.wallet.balance(tenant.id);
    return toBalanceView(tenant.slug, live ?? (await this.balances.current(tenant.id)));
  }
}
