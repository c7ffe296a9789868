import { QueueFactory } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import type { PollPlan } from '../schedule/poll-plan';
import { MEDIA_QUEUES, type PollJob } from './media-queues';

/**
 * Puts a task's next poll on the queue. The job id names the task and its poll count, so a job run twice
 * (a worker died mid-job) schedules the same next poll once, never two chains of polls.
 */
@Injectable()
export class PollScheduler {
  constructor(
    private readonly queues: QueueFactory,
    @Inject(MEDIA_ENV) private readonly env: MediaEnv,
  ) {}

  async schedule(taskId: string, round: number, delayMs = this.env.MEDIA_POLL_INTERVAL_MS, plan?: PollPlan | null): Promise<void> {
    const data: PollJob = plan === undefined ? { taskId } : { taskId, plan };
    await this.queues.queue<PollJob>(MEDIA_QUEUES.poll).add('poll', data, { delay: delayMs, jobId: `poll-${taskId}-${round}` });
  }

  /** A poll now, outside the task's chain, for a callback; one per poll count however often it is repeated. */
  async hint(taskId: string, polls: number): Promise<void> {
    await this.queues.queue<PollJob>(MEDIA_QUEUES.poll).add('poll', { taskId, hint: true }, { jobId: `hint-${taskId}-${polls}` });
  }

  /** After polls that learned nothing: doubling from the poll interval up to the cap, or the upstream's Retry-After. */
  backoffMs(failures: number, retryAfterSeconds: number | null): number {
    if (retryAfterSeconds !== null) return Math.min(this.env.MEDIA_POLL_MAX_BACKOFF_MS, Math.max(this.env.MEDIA_POLL_INTERVAL_MS, retryAfterSeconds * 1000));
    return Math.min(this.env.MEDIA_POLL_MAX_BACKOFF_MS, this.env.MEDIA_POLL_INTERVAL_MS * 2 ** Math.min(10, failures));
  }
}
