/** A half-open span of time [from, to). */
export interface Span {
  from: Date;
  to: Date;
}

/**
 * How a summary over [since, until) reads: the whole (UTC) days inside it from the daily rollup, days
 * [fromDay, toDay) with either end open; the part days at its edges from the records themselves.
 */
export interface UsageWindow {
  /** Null when no whole day lies inside the window. */
  days: { fromDay: Date | null; toDay: Date | null } | null;
  edges: Span[];
}

const DAY_MS = 86_400_000;

function dayOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export function usageWindowOf(since: Date | null, until: Date | null): UsageWindow {
  const first = since === null ? null : since.getTime() % DAY_MS === 0 ? since : new Date(dayOf(since).getTime() + DAY_MS);
  const end = until === null ? null : dayOf(until);
  if (since !== null && until !== null && first!.getTime() >= end!.getTime()) {
    return { days: null, edges: since < until ? [{ from: since, to: until }] : [] };
  }
  const edges: Span[] = [];
  if (since !== null && since < first!) edges.push({ from: since, to: first! });
  if (until !== null && end! < until) edges.push({ from: end!, to: until });
  return { days: { fromDay: first, toDay: end }, edges };
}
