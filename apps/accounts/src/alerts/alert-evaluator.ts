import { WalletStore } from '@gateway/billing';
import { formatMicros, type SubscriptionProfile } from '@gateway/contracts';
import { gatewayMetrics } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { counterIdOf, toBudgetView } from '../budgets/budget-view';
import { planWindowOf } from '../money/plan-window';
import { AlertPublisher, type DueAlert } from './alert-publisher';
import { balanceMove, balanceSubject, budgetSubject, crossedShares, parseCounterId, quotaIsLow, quotaSubject, usedRatio } from './alert-rules';
import { AlertsRepository, type AlertPlanQuota } from './alerts.repository';

/** What a batch of wallet events touched: budget counters, and tenants whose balance or quota moved. */
export interface Touched {
  counters: Set<string>;
  balanceTenants: Set<string>;
  quotaTenants: Set<string>;
}

export const nothingTouched = (): Touched => ({ counters: new Set(), balanceTenants: new Set(), quotaTenants: new Set() });

/**
 * Judges what a batch touched against the thresholds: budget shares reached in the current period,
 * balances below their tenant's amount, plan quotas whose part left fell below its share. Reads the live
 * wallet for balances and quotas (charged and held) and the ledger for budgets (charged, and held by
 * requests still running), so an alert comes as soon as the money is taken.
 */
@Injectable()
export class AlertEvaluator {
  constructor(
    @Inject(AlertsRepository) private readonly alerts: AlertsRepository,
    @Inject(WalletStore) private readonly wallet: WalletStore,
    @Inject(AlertPublisher) private readonly publisher: AlertPublisher,
  ) {}

  /** Fires what is due; returns how many alerts fired. */
  async evaluate(touched: Touched, now = Date.now()): Promise<number> {
    const due = [
      ...(await this.budgets(touched.counters, now)),
      ...(await this.balances(touched.balanceTenants)),
      ...(await this.quotas(touched.quotaTenants, now)),
    ];
    return due.length === 0 ? 0 : this.publisher.fire(due);
  }

  private async budgets(counterIds: ReadonlySet<string>, now: number): Promise<DueAlert[]> {
    const parsed = [...counterIds].flatMap((id) => parseCounterId(id) ?? []);
    if (parsed.length === 0) return [];
    const ids = (scope: string) => parsed.filter((c) => c.scope === scope).map((c) => c.scopeId);
    // A counter of a period that has ended (an event written after midnight) is not judged.
    const budgets = (await this.alerts.budgetsOf(ids('key'), ids('project'))).filter((b) => counterIds.has(counterIdOf(b, now)));
    // What the ledger charged, not the live counter: that also carries leases, many requests' worst case held at once.
    const used = await this.alerts.budgetCharges(budgets.map((b) => counterIdOf(b, now)));
    return budgets.flatMap((budget) => {
      const counterId = counterIdOf(budget, now);
      const spent = used.get(counterId) ?? 0n;
      const view = toBudgetView(budget, spent, now);
      if (budget.scope === 'project') gatewayMetrics.budgetUsedRatio.set({ tenant: view.tenant, project: view.project }, usedRatio(budget.amountMicros, spent));
      const { tenant, scope, key, project, amount, amountMicros, used: usedText, usedMicros, period, mode, periodStart, resetsAt } = view;
      return crossedShares(budget.amountMicros, spent, budget.alertAt).map((share) => ({
        tenantId: budget.tenantId,
        type: 'budget.threshold_reached' as const,
        subjectId: budgetSubject(counterId, share),
        data: { tenant, scope, key, project, amount, amountMicros, used: usedText, usedMicros, share, period, mode, periodStart, resetsAt },
      }));
    });
  }

  private async balances(tenantIds: ReadonlySet<string>): Promise<DueAlert[]> {
    if (tenantIds.size === 0) return [];
    const settings = (await this.alerts.settingsOf([...tenantIds])).filter((s) => s.balanceBelowMicros !== null);
    if (settings.length === 0) return [];
    const fired = await this.alerts.recorded(settings.map((s) => ({ subjectId: balanceSubject(s.tenantId, s.balanceEpoch), type: 'balance.low' })));
    const due: DueAlert[] = [];
    for (const s of settings) {
      const balance = await this.wallet.balance(s.tenantId);
      if (balance === null) continue;
      const subjectId = balanceSubject(s.tenantId, s.balanceEpoch);
      const threshold = s.balanceBelowMicros!;
      const move = balanceMove(balance, threshold, fired.has(`balance.low ${subjectId}`));
      if (move === 'rearm') await this.alerts.rearmBalance(s.tenantId, s.balanceEpoch);
      if (move !== 'fire') continue;
      due.push({
        tenantId: s.tenantId,
        type: 'balance.low',
        subjectId,
        data: {
          tenant: s.tenant.slug,
          balance: formatMicros(balance),
          balanceMicros: balance.toString(),
          threshold: formatMicros(threshold),
          thresholdMicros: threshold.toString(),
        },
      });
    }
    return due;
  }

  private async quotas(tenantIds: ReadonlySet<string>, now: number): Promise<DueAlert[]> {
    if (tenantIds.size === 0) return [];
    const shares = new Map((await this.alerts.settingsOf([...tenantIds])).flatMap((s) => (s.quotaBelow === null ? [] : [[s.tenantId, s.quotaBelow] as const])));
    if (shares.size === 0) return [];
    const due: DueAlert[] = [];
    for (const plan of await this.alerts.planQuotas([...shares.keys()])) {
      const window = planWindowOf(profileOf(plan), now);
      const share = shares.get(plan.tenantId)!;
      if (!window) continue;
      const used = await this.wallet.quotaUsed(plan.tenantId, window.periodIndex, window.unit);
      if (!quotaIsLow(window.limit, used, share)) continue;
      const amount = (n: bigint) => (window.unit === 'micros' ? formatMicros(n) : n.toString());
      due.push({
        tenantId: plan.tenantId,
        type: 'quota.low',
        subjectId: quotaSubject(plan.tenantId, window.periodIndex, share),
        data: {
          tenant: plan.tenant.slug,
          unit: window.unit,
          limit: amount(window.limit),
          used: amount(used),
          left: amount(used >= window.limit ? 0n : window.limit - used),
          share,
          periodStart: window.windowStart.toISOString(),
          resetsAt: window.windowEnd.toISOString(),
        },
      });
    }
    return due;
  }
}

/** The parts of a subscription its quota window is computed from. */
function profileOf(plan: AlertPlanQuota): SubscriptionProfile {
  return {
    kind: 'plan',
    quotaMicros: plan.quotaMicros === null ? null : plan.quotaMicros.toString(),
    quotaRequests: plan.quotaRequests,
    periodSeconds: plan.periodSeconds,
    startsAt: plan.createdAt.toISOString(),
    expiresAt: null,
    priceOverrides: {},
  };
}
