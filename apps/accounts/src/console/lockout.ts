export interface LockoutPolicy {
  threshold: number;
  baseSeconds: number;
  maxSeconds: number;
}

/**
 * How long an account stays locked after its `failures`-th wrong password in a row: not at all below the
 * threshold, then the base length doubling with each further failure, capped.
 */
export function lockoutSeconds(failures: number, policy: LockoutPolicy): number {
  if (failures < policy.threshold) return 0;
  const doublings = Math.min(failures - policy.threshold, 30);
  return Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** doublings);
}
