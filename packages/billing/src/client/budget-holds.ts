import { budgetCounterId, budgetWindowOf, displayMicros, GatewayError, type BudgetRule, type BudgetWindow } from '@gateway/contracts';
import type { BudgetHold } from '../redis/wallet.store';

/** A period's counter outlives its period this long, so reconcile and the console can still read the period just ended. */
const KEPT_AFTER_PERIOD_SECONDS = 8 * 24 * 3600;

const MINUTE_MS = 60_000;
/** Periods start on UTC midnights, so no minute spans two: each period's window is worked out once a minute. */
const windows = new Map<string, { minute: number; window: BudgetWindow }>();

function windowAt(period: BudgetRule['period'], nowMs: number): BudgetWindow {
  const minute = Math.floor(nowMs / MINUTE_MS);
  const kept = windows.get(period);
  if (kept?.minute === minute) return kept.window;
  const window = budgetWindowOf(period, nowMs);
  windows.set(period, { minute, window });
  return window;
}

/** The counters a request holds against for its budgets at `nowMs`: each budget's current period. */
export function budgetHoldsOf(rules: readonly BudgetRule[], nowMs: number): BudgetHold[] {
  return rules.map((rule) => {
    const window = windowAt(rule.period, nowMs);
    return {
      counterId: budgetCounterId(rule.scope, rule.scopeId, window),
      limit: rule.mode === 'hard' ? BigInt(rule.amountMicros) : null,
      ttlSeconds: window.endMs === null ? 0 : Math.ceil((window.endMs - nowMs) / 1000) + KEPT_AFTER_PERIOD_SECONDS,
    };
  });
}

const SCOPE_WORD = { key: 'API key', project: 'project' } as const;
const PERIOD_WORD = { day: 'per day', week: 'per week', month: 'per month', total: 'in total' } as const;

/** The refusal of a request whose worst case does not fit what a hard budget has left: names the budget and when it resets. */
export function budgetExceeded(rule: BudgetRule, left: bigint, nowMs: number): GatewayError {
  const window = budgetWindowOf(rule.period, nowMs);
  const resets = window.endMs === null ? 'it never resets' : `it resets at ${new Date(window.endMs).toISOString()}`;
  const retryAfterSeconds = window.endMs === null ? null : Math.max(1, Math.ceil((window.endMs - nowMs) / 1000));
  return new GatewayError(
    'budget_exceeded',
    `This request does not fit the budget of ${SCOPE_WORD[rule.scope]} "${rule.name}": ${displayMicros(rule.amountMicros)} ${PERIOD_WORD[rule.period]}, ` +
      `${displayMicros(left < 0n ? 0n : left)} left; ${resets}.`,
    null,
    null,
    retryAfterSeconds,
  );
}
