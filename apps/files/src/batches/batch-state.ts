import type { BatchStatus } from '@gateway/contracts';

/** What moves a batch: the validator's verdict, the runner's progress, the client's cancel, the clock. */
export type BatchEvent = 'validated' | 'invalid' | 'lines_done' | 'outputs_written' | 'cancel' | 'expire';

const TRANSITIONS: Record<BatchStatus, Partial<Record<BatchEvent, BatchStatus>>> = {
  validating: { validated: 'in_progress', invalid: 'failed', cancel: 'cancelling', expire: 'expired' },
  in_progress: { lines_done: 'finalizing', cancel: 'cancelling', expire: 'expired' },
  finalizing: { outputs_written: 'completed' },
  cancelling: { outputs_written: 'cancelled' },
  completed: {},
  failed: {},
  expired: {},
  cancelled: {},
};

/** The state `event` moves a batch in `status` to, or null when the event does not apply there. */
export function nextBatchStatus(status: BatchStatus, event: BatchEvent): BatchStatus | null {
  return TRANSITIONS[status][event] ?? null;
}

export function isTerminal(status: BatchStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'expired' || status === 'cancelled';
}

/** The timestamp column each state stamps when a batch enters it. */
export const STAMP_OF: Partial<
  Record<BatchStatus, 'inProgressAt' | 'finalizingAt' | 'completedAt' | 'failedAt' | 'expiredAt' | 'cancellingAt' | 'cancelledAt'>
> = {
  in_progress: 'inProgressAt',
  finalizing: 'finalizingAt',
  completed: 'completedAt',
  failed: 'failedAt',
  expired: 'expiredAt',
  cancelling: 'cancellingAt',
  cancelled: 'cancelledAt',
};
