export interface RetrySchedule {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
}

/**
 * The wait after failed attempt `attempt` (1-based): about base × 2^(attempt−1), capped, with ±20 %
 * jitter so receivers coming back from an outage are not hit by every sender in the same instant.
 * Null once the attempts are spent: the delivery is dead-lettered.
 */
export function retryDelayMs(schedule: RetrySchedule, attempt: number, random: () => number = Math.random): number | null {
  if (attempt >= schedule.maxAttempts) return null;
  const nominal = Math.min(schedule.maxMs, schedule.baseMs * 2 ** (attempt - 1));
  const jittered = nominal * (0.8 + 0.4 * random());
  return Math.max(1, Math.round(Math.min(schedule.maxMs, jittered)));
}

/** The nominal (jitter-free) waits of a whole schedule, for the README and operators. */
export function nominalHorizonMs(schedule: RetrySchedule): number {
  let total = 0;
  for (let attempt = 1; attempt < schedule.maxAttempts; attempt++) total += Math.min(schedule.maxMs, schedule.baseMs * 2 ** (attempt - 1));
  return total;
}
