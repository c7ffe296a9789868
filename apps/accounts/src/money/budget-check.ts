import { budgetCounterId, budgetWindowOf, BudgetPeriod, formatMicros, type ReconcileFinding } from '@gateway/contracts';
import type { OpenHold } from '@gateway/billing';
import { Inject, Injectable } from '@nestjs/common';
import { MoneyRepository } from './money.repository';
import { WalletInspector } from './wallet-inspector';

/**
 * Each budget's counter for its current period against the ledger: what the entries naming the counter
 * charged (holds still open counting as held), plus the wallet events naming it that are not yet written,
 * plus what open leases held against it still hold (leases are not ledgered; their draws are).
 * A counter moves in the same script as the balance, so any difference is a defect, not a race.
 */
@Injectable()
export class BudgetCheck {
  constructor(
    @Inject(MoneyRepository) private readonly money: MoneyRepository,
    @Inject(WalletInspector) private readonly wallet: WalletInspector,
  ) {}

  /** Findings per tenant id, one per budget whose counter differs. */
  async findings(
    tenantId: string | null,
    pending: ReadonlyMap<string, bigint>,
    holds: readonly OpenHold[],
    now: number,
  ): Promise<Map<string, ReconcileFinding[]>> {
    const budgets = (await this.money.budgets(tenantId)).map((budget) => {
      const scope = budget.scope === 'key' ? ('key' as const) : ('project' as const);
      const scopeId = (scope === 'key' ? budget.key_id : budget.project_id)!;
      return { ...budget, scope, counterId: budgetCounterId(scope, scopeId, budgetWindowOf(BudgetPeriod.parse(budget.period), now)) };
    });
    const findings = new Map<string, ReconcileFinding[]>();
    if (budgets.length === 0) return findings;
    const ids = budgets.map((b) => b.counterId);
    const [charged, counters] = await Promise.all([this.money.budgetCharges(ids), this.wallet.budgetCounters(ids)]);
    const leased = new Map<string, bigint>();
    for (const hold of holds) {
      if (hold.ledgered) continue;
      for (const counter of hold.budgets) leased.set(counter, (leased.get(counter) ?? 0n) + hold.amount);
    }
    for (const budget of budgets) {
      const counter = counters.get(budget.counterId) ?? 0n;
      const expected = (charged.get(budget.counterId) ?? 0n) + (pending.get(budget.counterId) ?? 0n) + (leased.get(budget.counterId) ?? 0n);
      if (counter === expected) continue;
      const list = findings.get(budget.tenant_id) ?? [];
      list.push({
        check: 'budget',
        message:
          `budget counter ${budget.counterId} (${budget.scope} "${budget.name}") reads ${formatMicros(counter)}, ` +
          `the ledger's charges of its period ${formatMicros(expected)}: differs by ${formatMicros(counter - expected)}`,
        differenceMicros: (counter - expected).toString(),
        ids: [budget.counterId],
      });
      findings.set(budget.tenant_id, list);
    }
    return findings;
  }
}
