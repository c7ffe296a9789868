// The music task state machine, a pure function of (state, upstream stage): states only move forward,
// failures and SUCCESS are terminal, and a move reports the callback stages it passed (in order) so
// that a task reaching SUCCESS straight from PENDING (by polling) still calls back text, first, complete.
import type { MusicCallbackType, MusicTaskStatus } from '@gateway/contracts';

export type UpstreamStage = MusicCallbackType | 'pending' | 'failed';

const RANK: Record<MusicTaskStatus, number> = {
  PENDING: 0,
  TEXT_SUCCESS: 1,
  FIRST_SUCCESS: 2,
  SUCCESS: 3,
  CREATE_TASK_FAILED: 4,
  GENERATE_AUDIO_FAILED: 4,
};

const STAGE_STATUS: Record<MusicCallbackType, MusicTaskStatus> = { text: 'TEXT_SUCCESS', first: 'FIRST_SUCCESS', complete: 'SUCCESS' };
const STAGE_RANK: Record<MusicCallbackType, number> = { text: 1, first: 2, complete: 3 };

export interface MusicMove {
  to: MusicTaskStatus;
  /** The callbacks this move owes the tenant, in order (only the stages the route reports). */
  callbacks: MusicCallbackType[];
}

export function isTerminal(status: MusicTaskStatus): boolean {
  return RANK[status] >= 3;
}

/** The move an upstream stage causes, or null when it changes nothing (stale, duplicate, or the task has ended). */
export function moveFor(current: MusicTaskStatus, stage: UpstreamStage, routeStages: readonly MusicCallbackType[]): MusicMove | null {
  if (isTerminal(current) || stage === 'pending') return null;
  if (stage === 'failed') return { to: 'GENERATE_AUDIO_FAILED', callbacks: [] };
  const target = STAGE_STATUS[stage];
  if (RANK[target] <= RANK[current]) return null;
  const callbacks = routeStages.filter((s) => STAGE_RANK[s] > RANK[current] && STAGE_RANK[s] <= RANK[target]);
  return { to: target, callbacks };
}

/**
 * Every callback a task in `status` has owed since it got there, in order: the stages it has reached that the
 * route reports (none for a failure, whose stages reached before it are not known). Publishing them again is
 * harmless (the outbox keeps one per stage), so whoever sees the task in this state can make sure they are recorded.
 */
export function callbacksOwed(status: MusicTaskStatus, routeStages: readonly MusicCallbackType[]): MusicCallbackType[] {
  if (RANK[status] > 3) return [];
  return routeStages.filter((s) => STAGE_RANK[s] <= RANK[status]);
}
