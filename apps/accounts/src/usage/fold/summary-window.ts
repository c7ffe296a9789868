export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface TimeRange {
  /** Inclusive; null is the beginning of time. */
  from: Date | null;
  /** Exclusive; null is no end. */
  to: Date | null;
}

/**
 * A usage summary's window split for a rollup of `unit`-long periods (hours, days): `whole` is the span of
 * whole periods it covers (read from the rollup, plus what is not folded yet), `edges` are the part periods
 * at either end, read from the records. A window shorter than its first whole period is all edge.
 */
export interface SummaryWindow {
  whole: TimeRange | null;
  edges: TimeRange[];
}

export function summaryWindow(since: Date | null, until: Date | null, unitMs = HOUR_MS): SummaryWindow {
  const from = since === null ? null : new Date(Math.ceil(since.getTime() / unitMs) * unitMs);
  const to = until === null ? null : new Date(Math.floor(until.getTime() / unitMs) * unitMs);
  if (from !== null && to !== null && from.getTime() >= to.getTime()) return { whole: null, edges: [{ from: since, to: until }] };
  const edges: TimeRange[] = [];
  if (since !== null && from !== null && from.getTime() > since.getTime()) edges.push({ from: since, to: from });
  if (until !== null && to !== null && to.getTime() < until.getTime()) edges.push({ from: to, to: until });
  return { whole: { from, to }, edges };
}
