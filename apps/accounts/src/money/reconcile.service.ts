import { BillingEnv, type OpenHold } from '@gateway/billing';
import { formatMicros, type ReconcileFinding, type ReconcileReport, type ReconcileTenant } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { BILLING_ENV } from '../billing/wallet.module';
import { TenantsService } from '../tenants/tenants.service';
import { MoneyRepository, type ChargeFinding, type TenantBooks, type UnexplainedEntry } from './money.repository';
import { BudgetCheck } from './budget-check';
import { QuotaCheck } from './quota-check';
import { WalletInspector, type WalletView } from './wallet-inspector';

/** Ids named in one finding, at most. */
const MAX_IDS = 20;

function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function named(ids: readonly string[]): { ids: string[]; more: string } {
  return { ids: ids.slice(0, MAX_IDS), more: ids.length > MAX_IDS ? ` (and ${ids.length - MAX_IDS} more)` : '' };
}

/**
 * Proves a tenant's books on demand: its balance-pool ledger entries sum to its stored balance and, with
 * the wallet events not yet written and the open leases (held, not ledgered) taken into account, to its
 * live wallet balance; every request charged has one usage record and every record that says what it
 * was charged agrees with the ledger; no hold is open past its deadline (beyond the sweeper's grace);
 * a plan's current quota counter equals what the window's usage drew from it (see QuotaCheck); each
 * budget's current counter equals what the ledger charged it (see BudgetCheck).
 * Every figure comes from a few aggregate queries and pipelined wallet reads, whatever the tenant count.
 */
@Injectable()
export class ReconcileService {
  constructor(
    @Inject(MoneyRepository) private readonly money: MoneyRepository,
    @Inject(WalletInspector) private readonly wallet: WalletInspector,
    @Inject(TenantsService) private readonly tenants: TenantsService,
    @Inject(BILLING_ENV) private readonly env: BillingEnv,
    @Inject(QuotaCheck) private readonly quota: QuotaCheck,
    @Inject(BudgetCheck) private readonly budgets: BudgetCheck,
  ) {}

  async reconcile(request: { tenant?: string; all?: boolean }, now = Date.now()): Promise<ReconcileReport> {
    const started = Date.now();
    const tenantId = request.tenant ? (await this.tenants.requireBySlug(request.tenant)).id : null;
    const [books, charges, unexplained] = await Promise.all([
      this.money.books(tenantId),
      this.money.chargeFindings(tenantId),
      this.money.unexplained(tenantId),
    ]);
    const wallet = await this.wallet.view(books.map((b) => b.tenant_id));
    const [quotaFindings, budgetFindings] = await Promise.all([
      this.quota.findings(tenantId, wallet.holds, now),
      this.budgets.findings(tenantId, wallet.pendingBudgets, wallet.holds, now),
    ]);
    const chargesOf = group(charges, (c) => c.tenant_id);
    const unexplainedOf = group(unexplained, (e) => e.tenant_id);
    const holdsOf = group(wallet.holds, (h) => h.tenantId);
    // The sweeper releases an overdue hold within its interval: only one older than that is a finding.
    const overdueBefore = now - 2 * this.env.BILLING_SWEEP_INTERVAL_MS - 5000;
    const tenants = books.map((b) =>
      this.tenant(b, wallet, chargesOf.get(b.tenant_id) ?? [], unexplainedOf.get(b.tenant_id) ?? [], holdsOf.get(b.tenant_id) ?? [], overdueBefore, [
        ...(quotaFindings.get(b.tenant_id) ?? []),
        ...(budgetFindings.get(b.tenant_id) ?? []),
      ]),
    );
    return { ok: tenants.every((t) => t.ok), checked: tenants.length, tookMs: Date.now() - started, tenants };
  }

  private tenant(
    books: TenantBooks,
    wallet: WalletView,
    charges: readonly ChargeFinding[],
    unexplained: readonly UnexplainedEntry[],
    holds: readonly OpenHold[],
    overdueBefore: number,
    findings: ReconcileFinding[],
  ): ReconcileTenant {
    const ledger = BigInt(books.ledger_micros);
    const stored = BigInt(books.stored_micros);
    const strays = unexplained.map((e) => `entry ${e.id} (${e.kind} ${formatMicros(BigInt(e.amount_micros))})`);
    if (ledger !== stored) {
      const { ids, more } = named(strays);
      findings.push({
        check: 'stored_balance',
        message: `stored balance ${formatMicros(stored)} differs from the ledger's ${formatMicros(ledger)} by ${formatMicros(stored - ledger)}${ids.length ? `; entries no request explains: ${ids.join(', ')}${more}` : ''}`,
        differenceMicros: (stored - ledger).toString(),
        ids: unexplained.map((e) => e.id).slice(0, MAX_IDS),
      });
    }
    const live = wallet.balances.get(books.tenant_id) ?? null;
    if (live !== null) {
      const leases = holds.filter((h) => h.mode === 'balance' && !h.ledgered).reduce((sum, h) => sum + h.amount, 0n);
      const expected = ledger + (wallet.pending.get(books.tenant_id) ?? 0n) - leases;
      if (live !== expected) {
        const { ids, more } = named(strays);
        findings.push({
          check: 'balance',
          message: `wallet balance ${formatMicros(live)} differs from top-ups − charges − open holds (${formatMicros(expected)}) by ${formatMicros(live - expected)}${ids.length ? `; entries no request explains: ${ids.join(', ')}${more}` : ''}`,
          differenceMicros: (live - expected).toString(),
          ids: unexplained.map((e) => e.id).slice(0, MAX_IDS),
        });
      }
    }
    const orphans = charges.filter((c) => !c.has_usage);
    if (orphans.length) {
      const total = orphans.reduce((sum, c) => sum + BigInt(c.charged), 0n);
      const { ids, more } = named(orphans.map((c) => `${c.request_id} (entries ${c.entry_ids.join(' ')})`));
      findings.push({
        check: 'charge_without_usage',
        message: `${orphans.length} charge(s) of ${formatMicros(total)} with no usage record: ${ids.join(', ')}${more}`,
        differenceMicros: total.toString(),
        ids: orphans.flatMap((c) => [c.request_id, ...c.entry_ids]).slice(0, MAX_IDS),
      });
    }
    const mismatched = charges.filter((c) => c.has_usage);
    if (mismatched.length) {
      const { ids, more } = named(
        mismatched.map((c) => `${c.request_id} (record ${formatMicros(BigInt(c.usage_cost ?? '0'))}, ledger ${formatMicros(BigInt(c.charged))})`),
      );
      findings.push({
        check: 'usage_cost_mismatch',
        message: `${mismatched.length} usage record(s) whose charge the ledger does not show: ${ids.join(', ')}${more}`,
        ids: mismatched.map((c) => c.request_id).slice(0, MAX_IDS),
      });
    }
    const overdue = holds.filter((h) => h.deadlineMs < overdueBefore);
    if (overdue.length) {
      const { ids, more } = named(overdue.map((h) => `${h.id} (due ${new Date(h.deadlineMs).toISOString()})`));
      findings.push({
        check: 'hold_overdue',
        message: `${overdue.length} hold(s) open past their deadline: ${ids.join(', ')}${more}`,
        ids: overdue.map((h) => h.id).slice(0, MAX_IDS),
      });
    }
    return {
      tenant: books.slug,
      ok: findings.length === 0,
      ledgerMicros: ledger.toString(),
      storedMicros: stored.toString(),
      walletMicros: live === null ? null : live.toString(),
      findings,
    };
  }
}
