import { BatchJobData } from '@gateway/contracts';
import type { QueueFactory } from '@gateway/platform';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { FILES_ENV, type FilesEnv } from '../config/files-env';
import { BatchRunnerService } from './batch-runner.service';
import { BATCH_QUEUE, BATCH_QUEUES } from './batch-tokens';

/** The worker role: takes batch jobs off the queue and hands each to the runner. A killed worker's job is taken up by another once its lock lapses. */
@Injectable()
export class BatchProcessor implements OnApplicationBootstrap {
  constructor(
    @Inject(BATCH_QUEUES) private readonly queues: QueueFactory,
    @Inject(FILES_ENV) private readonly env: FilesEnv,
    private readonly runner: BatchRunnerService,
  ) {}

  onApplicationBootstrap(): void {
    this.queues.worker(BATCH_QUEUE, BatchJobData, (data) => this.runner.advance(data.batchId), {
      concurrency: this.env.BATCH_WORKER_BATCHES,
      lockDurationMs: this.env.BATCH_LOCK_MS,
      stalledIntervalMs: this.env.BATCH_LOCK_MS,
    });
  }
}
