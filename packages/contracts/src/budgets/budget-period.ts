import type { BudgetPeriod } from './budget.schema';

/** One period of a budget: its counter's key part and its bounds (ms since the epoch, UTC). */
export interface BudgetWindow {
  /** `d20261129`, `w20261123` (the Monday it starts), `m202611`, or `t` for a total. */
  key: string;
  startMs: number | null;
  endMs: number | null;
}

const DAY_MS = 86_400_000;

function ymd(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
}

/** The period of `period` that `nowMs` falls in. */
export function budgetWindowOf(period: BudgetPeriod, nowMs: number): BudgetWindow {
  switch (period) {
    case 'total':
      return { key: 't', startMs: null, endMs: null };
    case 'day': {
      const startMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
      return { key: `d${ymd(startMs)}`, startMs, endMs: startMs + DAY_MS };
    }
    case 'week': {
      const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
      const sinceMonday = (new Date(dayStart).getUTCDay() + 6) % 7;
      const startMs = dayStart - sinceMonday * DAY_MS;
      return { key: `w${ymd(startMs)}`, startMs, endMs: startMs + 7 * DAY_MS };
    }
    case 'month': {
      const now = new Date(nowMs);
      const startMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
      const endMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      return { key: `m${ymd(startMs).slice(0, 6)}`, startMs, endMs };
    }
  }
}

/** A budget counter's id: its scope, the key's or project's id, and the period: `key:<uuid>:d20261129`. */
export function budgetCounterId(scope: 'key' | 'project', scopeId: string, window: BudgetWindow): string {
  return `${scope}:${scopeId}:${window.key}`;
}
