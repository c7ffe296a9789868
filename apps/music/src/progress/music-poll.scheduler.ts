import { QueueFactory } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { MUSIC_ENV, type MusicEnv } from '../config/music-env';

export const POLL_QUEUE = 'music-poll';
export const PollJob = z.object({ taskId: z.string().min(1), round: z.number().int().positive() });
export type PollJob = z.infer<typeof PollJob>;

/** Puts a task's next look at its upstream on the queue; one job id per round, so a second enqueue is dropped. */
@Injectable()
export class MusicPollScheduler {
  constructor(
    @Inject(QueueFactory) private readonly queues: QueueFactory,
    @Inject(MUSIC_ENV) private readonly env: MusicEnv,
  ) {}

  async schedule(taskId: string, round: number): Promise<void> {
    await this.queues.queue<PollJob>(POLL_QUEUE).add('poll', { taskId, round }, { jobId: `poll-${taskId}-${round}`, delay: this.env.MUSIC_POLL_INTERVAL_MS });
  }
}
