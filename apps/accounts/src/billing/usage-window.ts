/** A half-open span of time [from, to). */
export interface Span {
  from: Date;
  to: Date;
}

/**
 * How a summary over [since, until) reads: the whole (UTC) hours inside it from the hourly rollup, hours
 * [fromHour, toHour) with either end open; the part hours at its edges from the records themselves.
 */
export interface UsageWindow {
  /** Null when no whole hour lies inside the window. */
  hours: { fromHour: Date | null; toHour: Date | null } | null;
  edges: Span[];
}

const HOUR_MS = 3_600_000;

function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

export function usageWindowOf(since: Date | null, until: Date | null): UsageWindow {
  const first = since === null ? null : since.getTime() % HOUR_MS === 0 ? since : new Date(hourOf(since).getTime() + HOUR_MS);
  const end = until === null ? null : hourOf(until);
  if (since !== null && until !== null && first!.getTime() >= end!.getTime()) {
    return { hours: null, edges: since < until ? [{ from: since, to: until }] : [] };
  }
  const edges: Span[] = [];
  if (since !== null && since < first!) edges.push({ from: since, to: first! });
  if (until !== null && end! < until) edges.push({ from: end!, to: until });
  return { hours: { fromHour: first, toHour: end }, edges };
}
