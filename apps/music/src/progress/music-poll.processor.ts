import type { MusicTaskStatus } from '@gateway/contracts';
import { CatalogCache, QueueFactory } from '@gateway/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MUSIC_ENV, type MusicEnv } from '../config/music-env';
import { MusicTaskRepository, type MusicTaskRow } from '../tasks/music-task.repository';
import { isTerminal } from '../tasks/music-task.state';
import { MusicUpstreamClient } from '../upstream/music-upstream.client';
import { MusicPollScheduler, POLL_QUEUE, PollJob } from './music-poll.scheduler';
import { MusicProgressService, verbOf } from './music-progress.service';

/**
 * The poller: for a task still open, asks the upstream where it stands (reaching the same states as
 * callbacks would, when they are late or never come), fails it past its deadline, and schedules the next round.
 * A task's rounds end only once it has ended, its billing and usage record are done and the callbacks its
 * end owes are recorded in the webhook outbox: a terminal move whose billing or publishing failed (here or
 * at the callback intake, or in a process that died) is finished by the next round.
 */
@Injectable()
export class MusicPollProcessor {
  private readonly logger = new Logger('music');

  constructor(
    @Inject(QueueFactory) private readonly queues: QueueFactory,
    private readonly tasks: MusicTaskRepository,
    private readonly catalog: CatalogCache,
    private readonly upstream: MusicUpstreamClient,
    private readonly progress: MusicProgressService,
    private readonly polls: MusicPollScheduler,
    @Inject(MUSIC_ENV) private readonly env: MusicEnv,
  ) {}

  start(): void {
    const lockMs = this.env.MUSIC_JOB_LOCK_MS;
    this.queues.worker(POLL_QUEUE, PollJob, (job) => this.poll(job), {
      concurrency: 32,
      lockDurationMs: lockMs,
      stalledIntervalMs: Math.max(1000, Math.floor(lockMs / 2)),
    });
  }

  async poll({ taskId, round }: PollJob): Promise<void> {
    const task = await this.tasks.find(taskId);
    if (!task) return;
    if (isTerminal(task.status as MusicTaskStatus)) return this.settle(task, round);
    if (Date.now() > task.deadlineAt.getTime()) {
      await this.progress.fail(task, 'GENERATE_AUDIO_FAILED', 500, 'The task did not complete before its deadline.');
      return;
    }
    try {
      if (task.upstreamTaskId) {
        const channel = (await this.catalog.channels(task.model)).channels.find((c) => c.id === task.channelId);
        if (!channel) throw new Error(`the channel ${task.channelId} of model '${task.model}' is no longer configured`);
        await this.progress.apply(task.id, await this.upstream.recordInfo(verbOf(task), task.upstreamTaskId, channel));
      }
    } catch (error) {
      this.logger.warn(`polling music task ${task.id} failed: ${(error as Error).message}`);
    }
    const after = await this.tasks.find(taskId);
    if (!after) return;
    if (isTerminal(after.status as MusicTaskStatus)) await this.settle(after, round);
    else await this.polls.schedule(taskId, round + 1);
  }

  /**
   * The last round of an ended task: its billing ended and usage recorded if still owed, its owed
   * callbacks recorded (again, harmlessly); or another round to try what failed.
   */
  private async settle(task: MusicTaskRow, round: number): Promise<void> {
    const billed = await this.progress.billIfOwed(task);
    try {
      await this.progress.publishOwed(task);
    } catch (error) {
      this.logger.warn(`recording the callbacks of music task ${task.id} failed, trying again next round: ${(error as Error).message}`);
      return this.polls.schedule(task.id, round + 1);
    }
    if (!billed) await this.polls.schedule(task.id, round + 1);
  }
}
