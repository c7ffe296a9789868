import { QueueFactory } from '@gateway/platform';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import { MEDIA_QUEUES, PollJob, SweepJob } from '../tasks/media-queues';
import { MediaPollService } from './media-poll.service';
import { MediaSweepService } from './media-sweep.service';

/** The worker role's BullMQ processors: each parses its job and calls one service method. */
@Injectable()
export class MediaWorkerProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly queues: QueueFactory,
    private readonly polls: MediaPollService,
    private readonly sweeper: MediaSweepService,
    @Inject(MEDIA_ENV) private readonly env: MediaEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const lock = { lockDurationMs: this.env.MEDIA_JOB_LOCK_MS, stalledIntervalMs: Math.max(1000, Math.floor(this.env.MEDIA_JOB_LOCK_MS / 2)) };
    this.queues.worker(MEDIA_QUEUES.poll, PollJob, (job) => this.polls.poll(job.taskId, job.hint === true, job.plan), {
      concurrency: this.env.MEDIA_WORKER_CONCURRENCY,
      ...lock,
    });
    this.queues.worker(MEDIA_QUEUES.sweep, SweepJob, () => this.sweeper.sweep(), { concurrency: 1, ...lock });
    // One sweep an interval however many workers ask, and none lost with a Redis that forgot its schedule.
    this.queues.every(MEDIA_QUEUES.sweep, this.env.MEDIA_SWEEP_INTERVAL_MS);
    // The Redis-kept schedule of earlier versions would sweep a second time; it goes.
    await this.queues.queue(MEDIA_QUEUES.sweep).removeJobScheduler('sweep');
  }
}
