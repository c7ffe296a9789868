import type { BudgetScope } from '@gateway/contracts';

// When an alert fires, and the subject that makes it fire once: the outbox and tenant_alerts keep one row
// per (subject, type), so a subject names the threshold and the period (or the balance's arming).

/** The shares (percent) of `amount` that `used` has reached; none before anything was used. */
export function crossedShares(amountMicros: bigint, usedMicros: bigint, shares: readonly number[]): number[] {
  if (usedMicros <= 0n) return [];
  return shares.filter((share) => usedMicros * 100n >= amountMicros * BigInt(share));
}

/** What a project budget's gauge shows: used over amount (0 for an amount of 0 that nothing used). */
export function usedRatio(amountMicros: bigint, usedMicros: bigint): number {
  if (amountMicros === 0n) return usedMicros > 0n ? 1 : 0;
  return Number((usedMicros * 10_000n) / amountMicros) / 10_000;
}

/** Whether a quota's left part is below `share` percent of its limit. */
export function quotaIsLow(limit: bigint, used: bigint, share: number): boolean {
  const left = used >= limit ? 0n : limit - used;
  return limit > 0n && left * 100n < limit * BigInt(share);
}

/**
 * `fire`: the balance is below the threshold and this arming has not fired; `rearm`: it is back at or
 * above after firing, so the next fall fires again.
 */
export function balanceMove(balanceMicros: bigint, thresholdMicros: bigint, firedThisArming: boolean): 'fire' | 'rearm' | 'none' {
  if (balanceMicros < thresholdMicros) return firedThisArming ? 'none' : 'fire';
  return firedThisArming ? 'rearm' : 'none';
}

export const budgetSubject = (counterId: string, share: number) => `budget:${counterId}:${share}`;
export const balanceSubject = (tenantId: string, arming: number) => `balance:${tenantId}:${arming}`;
export const quotaSubject = (tenantId: string, periodIndex: number, share: number) => `quota:${tenantId}:${periodIndex}:${share}`;

/** A budget counter id's parts (see budgetCounterId); null for one this version cannot read. */
export function parseCounterId(counterId: string): { scope: BudgetScope; scopeId: string; window: string } | null {
  const match = /^(key|project):([0-9a-f-]{36}):([a-z0-9]+)$/i.exec(counterId);
  return match ? { scope: match[1] as BudgetScope, scopeId: match[2]!, window: match[3]! } : null;
}
