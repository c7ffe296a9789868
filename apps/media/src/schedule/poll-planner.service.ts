import type { CatalogChannel } from '@gateway/contracts';
import { mediaVendorOf } from '@gateway/providers';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import type { MediaTask } from '../tasks/media-task.repository';
import { CompletionHistoryRepository, type HistoryScope } from './completion-history.repository';
import { nextPollDelayMs } from './poll-plan';

/** The task fields a plan reads. */
export type PlannedTask = Pick<MediaTask, 'channelId' | 'model' | 'job' | 'createdAt' | 'deadlineAt'>;

/**
 * Plans each task's next poll from what tasks like it took lately (see poll-plan.ts), and teaches the
 * history each task that succeeds. A history Redis cannot give is no history: the plain interval.
 */
@Injectable()
export class PollPlanner {
  private readonly logger = new Logger('media');

  constructor(
    private readonly history: CompletionHistoryRepository,
    @Inject(MEDIA_ENV) private readonly env: MediaEnv,
  ) {}

  /** True when the channel's upstream is given a callback URL for its tasks (and polls are a safety net). */
  callbacksOn(channel: Pick<CatalogChannel, 'protocol' | 'callbacks'> | undefined): boolean {
    return Boolean(channel?.callbacks && this.env.PUBLIC_BASE_URL && mediaVendorOf(channel.protocol)?.takesCallbackUrl);
  }

  async delayMs(task: PlannedTask, options: { progress: number | null; callbacks: boolean; now?: number }): Promise<number> {
    const history = options.callbacks ? null : await this.history.read(scopeOf(task)).catch(() => null);
    return nextPollDelayMs({
      nowMs: options.now ?? Date.now(),
      startedAtMs: task.createdAt.getTime(),
      deadlineAtMs: task.deadlineAt.getTime(),
      intervalMs: this.env.MEDIA_POLL_INTERVAL_MS,
      maxBackoffMs: this.env.MEDIA_POLL_MAX_BACKOFF_MS,
      history,
      progress: options.progress !== null && options.progress > 0 ? options.progress : null,
      callbackSafetyNetMs: options.callbacks ? this.env.MEDIA_CALLBACK_POLL_MS : null,
    });
  }

  /** Adds a task that just succeeded to its history (time from accept to the end seen). */
  async learn(task: PlannedTask, endedAt = Date.now()): Promise<void> {
    await this.history
      .record(scopeOf(task), endedAt - task.createdAt.getTime())
      .catch((error: unknown) => this.logger.warn(`poll history not updated: ${(error as Error).message}`));
  }
}

function scopeOf(task: PlannedTask): HistoryScope {
  return { channelId: task.channelId ?? '-', model: task.model, kind: `${task.job.output}-${task.job.nativeKind}` };
}
