const HOUR_MS = 3_600_000;

export interface TimeRange {
  /** Inclusive; null is the beginning of time. */
  from: Date | null;
  /** Exclusive; null is no end. */
  to: Date | null;
}

/**
 * A usage summary's window split for the hourly rollup: `hours` is the span of whole hours it covers
 * (read from usage_hourly, plus what is not folded yet), `edges` are the part hours at either end, read
 * from the records. A window shorter than its first whole hour is all edge.
 */
export interface SummaryWindow {
  hours: TimeRange | null;
  edges: TimeRange[];
}

const floorHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const ceilHour = (at: Date) => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);

export function summaryWindow(since: Date | null, until: Date | null): SummaryWindow {
  const from = since === null ? null : ceilHour(since);
  const to = until === null ? null : floorHour(until);
  if (from !== null && to !== null && from.getTime() >= to.getTime()) return { hours: null, edges: [{ from: since, to: until }] };
  const edges: TimeRange[] = [];
  if (since !== null && from !== null && from.getTime() > since.getTime()) edges.push({ from: since, to: from });
  if (until !== null && to !== null && to.getTime() < until.getTime()) edges.push({ from: to, to: until });
  return { hours: { from, to }, edges };
}
