import { RPCS, type BudgetRule } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';

/** How long a key's budgets are reused: one batch asks once for many lines, and a change shows within this. */
const KEPT_MS = 5000;

/**
 * The budgets of a batch's key, asked of accounts: a batch runs long after its request, so its lines hold
 * against the budgets as they stand when they run, like live requests of the same key.
 */
export class KeyBudgets {
  private readonly kept = new Map<string, { rules: BudgetRule[]; at: number }>();

  constructor(private readonly bus: NatsBus) {}

  async of(keyId: string): Promise<BudgetRule[]> {
    const now = Date.now();
    const found = this.kept.get(keyId);
    if (found && now - found.at < KEPT_MS) return found.rules;
    const rules = await this.bus.call(RPCS.accounts.budgets.ofKey, { keyId });
    if (this.kept.size > 10_000) this.kept.clear();
    this.kept.set(keyId, { rules, at: now });
    return rules;
  }
}
