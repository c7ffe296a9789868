import type { BatchError, BatchObject, BatchStatus } from '@gateway/contracts';
import { randomBytes } from 'node:crypto';
import type { BatchRow } from './batches.repository';

export function newBatchId(): string {
  return `batch_${randomBytes(12).toString('hex')}`;
}

const seconds = (date: Date | null): number | null => (date ? Math.floor(date.getTime() / 1000) : null);

/**
 * Counts as recorded so far; a native batch whose upstream output is not read yet shows the counts its
 * upstream reported at the last poll.
 */
function countsOf(row: BatchRow): BatchObject['request_counts'] {
  const completed = Math.max(row.completed, row.mode === 'native' ? row.upstreamCompleted : 0);
  const failed = Math.max(row.failed, row.mode === 'native' ? row.upstreamFailed : 0);
  return { total: row.total, completed, failed };
}

/** The public record of a batch (spec 2.9), its counts as recorded so far. */
export function batchObjectOf(row: BatchRow): BatchObject {
  const errors = row.errors as { object: 'list'; data: BatchError[] } | null;
  return {
    id: row.id,
    object: 'batch',
    endpoint: row.endpoint,
    errors: errors ?? null,
    input_file_id: row.inputFileId,
    completion_window: row.completionWindow,
    status: row.status as BatchStatus,
    output_file_id: row.outputFileId,
    error_file_id: row.errorFileId,
    created_at: seconds(row.createdAt)!,
    in_progress_at: seconds(row.inProgressAt),
    expires_at: seconds(row.expiresAt),
    finalizing_at: seconds(row.finalizingAt),
    completed_at: seconds(row.completedAt),
    failed_at: seconds(row.failedAt),
    expired_at: seconds(row.expiredAt),
    cancelling_at: seconds(row.cancellingAt),
    cancelled_at: seconds(row.cancelledAt),
    request_counts: countsOf(row),
    metadata: (row.metadata as Record<string, string> | null) ?? null,
  };
}
