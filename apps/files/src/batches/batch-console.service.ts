import type { BatchStatus, ConsoleTaskServicePage, ConsoleTaskStatus } from '@gateway/contracts';
import { consoleTaskPage, statesOf } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { BatchesRepository } from './batches.repository';

const STATUS_OF: Record<BatchStatus, ConsoleTaskStatus> = {
  validating: 'queued',
  in_progress: 'running',
  finalizing: 'running',
  cancelling: 'running',
  completed: 'succeeded',
  failed: 'failed',
  expired: 'failed',
  cancelled: 'cancelled',
};

/**
 * The tenant console's list of batches, newest first: lines done of all, and the ids of the output and
 * error files (read with a key through the files API; uploaded and written files are not signed links).
 */
@Injectable()
export class BatchConsoleService {
  constructor(private readonly batches: BatchesRepository) {}

  list(payload: unknown): Promise<ConsoleTaskServicePage> {
    return consoleTaskPage(
      payload,
      (status) => statesOf((batch: BatchStatus) => STATUS_OF[batch], Object.keys(STATUS_OF) as BatchStatus[], status),
      (query) => this.batches.pageForTenant(query),
      (batch) => ({
        id: batch.id,
        kind: 'batch' as const,
        route: batch.endpoint,
        model: batch.nativeModelId ?? `${batch.total} lines`,
        status: STATUS_OF[batch.status as BatchStatus] ?? 'running',
        progress: batch.total > 0 ? Math.round(((batch.completed + batch.failed) / batch.total) * 100) : null,
        createdAt: batch.createdAt.toISOString(),
        finishedAt: (batch.completedAt ?? batch.failedAt ?? batch.expiredAt ?? batch.cancelledAt)?.toISOString() ?? null,
        error: batch.failed > 0 ? `${batch.failed} of ${batch.total} lines failed` : null,
        results: [],
        fileIds: [batch.outputFileId, batch.errorFileId].filter((id): id is string => id !== null),
        // Each line holds and is charged on its own: the batch's charge is that of its usage records.
        holdId: null,
      }),
    );
  }
}
