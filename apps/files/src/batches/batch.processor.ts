import { BatchJobData, GatewayError } from '@gateway/contracts';
import type { QueueFactory } from '@gateway/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { FILES_ENV, type FilesEnv } from '../config/files-env';
import { BatchRunnerService } from './batch-runner.service';
import { BATCH_QUEUE, BATCH_QUEUES } from './batch-tokens';

/** How long a batch waits before trying again when a service it needs does not answer. */
const UNAVAILABLE_RETRY_MS = 2000;

/** A job's failure after which BullMQ tries no more: its attempts are used up (it is then finished). */
function failedForGood(job: Job): boolean {
  return Boolean(job.finishedOn) || job.attemptsMade >= (job.opts.attempts ?? 1);
}

/**
 * The worker role: takes batch jobs off the queue and hands each to the runner. A killed worker's job is
 * taken up by another once its lock lapses. A native batch's job waits between polls of its upstream as a
 * delayed job (one job per batch, so never two chains of polls), as does a batch waiting out a gateway
 * service that does not answer; a job that failed all its attempts ends its batch as failed.
 */
@Injectable()
export class BatchProcessor implements OnApplicationBootstrap {
  private readonly logger = new Logger(BatchProcessor.name);

  constructor(
    @Inject(BATCH_QUEUES) private readonly queues: QueueFactory,
    @Inject(FILES_ENV) private readonly env: FilesEnv,
    private readonly runner: BatchRunnerService,
  ) {}

  onApplicationBootstrap(): void {
    const worker = this.queues.worker(
      BATCH_QUEUE,
      BatchJobData,
      async (data, job) => {
        const waitMs = await this.runner.advance(data.batchId).catch((error: unknown) => {
          // One of the gateway's own services down (restarting) is waited out, not counted against the job's attempts.
          if (!(error instanceof GatewayError && error.code === 'unavailable')) throw error;
          this.logger.warn(`${data.batchId}: ${error.message}; trying again in ${UNAVAILABLE_RETRY_MS} ms`);
          return UNAVAILABLE_RETRY_MS;
        });
        if (waitMs === null) return;
        await job.moveToDelayed(Date.now() + waitMs, job.token);
        throw new DelayedError();
      },
      { concurrency: this.env.BATCH_WORKER_BATCHES, lockDurationMs: this.env.BATCH_LOCK_MS, stalledIntervalMs: this.env.BATCH_LOCK_MS },
    );
    worker.on('failed', (job, error) => {
      if (!job || !failedForGood(job)) return;
      const parsed = BatchJobData.safeParse(job.data);
      if (!parsed.success) return;
      this.runner.giveUp(parsed.data.batchId, error).catch((giveUpError: Error) => {
        this.logger.error(`${parsed.data.batchId}: could not be marked failed after its job failed: ${giveUpError.message}`);
      });
    });
  }
}
