import type { OpenHold } from '@gateway/billing';
import { formatMicros, type ReconcileFinding } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { MoneyRepository, type PlanQuota } from './money.repository';
import { planWindowOf } from './plan-window';
import { WalletInspector } from './wallet-inspector';

/**
 * A plan's quota counter for its current window against the window's usage: in micro-units, what the
 * quota pool charged the window's usage records plus the holds still open on the counter; in requests,
 * the records served plus the open holds (one each). Read at rest: a request whose record or ledger
 * entries are still on their way shows as a difference until they are written.
 */
@Injectable()
export class QuotaCheck {
  constructor(
    @Inject(MoneyRepository) private readonly money: MoneyRepository,
    @Inject(WalletInspector) private readonly wallet: WalletInspector,
  ) {}

  /** Findings per tenant id: at most one each, naming its counter and the difference. */
  async findings(tenantId: string | null, holds: readonly OpenHold[], now: number): Promise<Map<string, ReconcileFinding[]>> {
    const windows = (await this.money.planQuotas(tenantId)).flatMap((plan) => {
      const window = planWindowOf(profileOf(plan), now);
      return window ? [{ tenantId: plan.tenant_id, window, key: this.wallet.quotaKey(plan.tenant_id, window.periodIndex, window.unit) }] : [];
    });
    if (windows.length === 0) return new Map();
    const [usage, counters] = await Promise.all([
      this.money.windowUsage(windows.map((w) => ({ tenantId: w.tenantId, from: w.window.windowStart, to: w.window.windowEnd }))),
      this.wallet.counters(windows.map((w) => w.key)),
    ]);
    const usageOf = new Map(usage.map((u) => [u.tenant_id, u]));
    const findings = new Map<string, ReconcileFinding[]>();
    for (const { tenantId: tenant, window, key } of windows) {
      const open = holds.filter((h) => h.mode === 'quota' && h.key === key);
      const held = open.reduce((sum, h) => sum + h.amount, 0n);
      const used = usageOf.get(tenant);
      const drawn = window.unit === 'micros' ? BigInt(used?.charged_micros ?? '0') : BigInt(used?.served ?? '0');
      const expected = drawn + held;
      const counter = counters.get(key) ?? 0n;
      if (counter === expected) continue;
      const amount = (n: bigint) => (window.unit === 'micros' ? formatMicros(n) : `${n} requests`);
      findings.set(tenant, [
        {
          check: 'quota',
          message:
            `quota counter ${key} (window ${window.windowStart.toISOString()} to ${window.windowEnd.toISOString()}) reads ${amount(counter)}, ` +
            `its usage ${amount(drawn)} over ${used?.records ?? '0'} record(s) and ${open.length} open hold(s) of ${amount(held)}: ` +
            `differs by ${amount(counter - expected)}`,
          ...(window.unit === 'micros' ? { differenceMicros: (counter - expected).toString() } : {}),
          ids: [key, ...open.map((h) => h.id)].slice(0, 20),
        },
      ]);
    }
    return findings;
  }
}

/** The parts of a subscription its window is computed from. */
function profileOf(plan: PlanQuota) {
  return {
    kind: 'plan' as const,
    quotaMicros: plan.quota_micros,
    quotaRequests: plan.quota_requests,
    periodSeconds: plan.period_seconds,
    startsAt: plan.starts_at.toISOString(),
    expiresAt: null,
    priceOverrides: {},
  };
}
