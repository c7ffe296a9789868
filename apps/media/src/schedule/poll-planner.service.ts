import type { CatalogChannel } from '@gateway/contracts';
import { mediaVendorOf } from '@gateway/providers';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import type { MediaTask } from '../tasks/media-task.repository';
import { CompletionHistoryRepository, type HistoryScope } from './completion-history.repository';
import { nextPollDelayMs, pollPlanOf, type PollPlan } from './poll-plan';

/** The task fields a plan reads. */
export type PlannedTask = Pick<MediaTask, 'channelId' | 'model' | 'job' | 'createdAt' | 'deadlineAt'>;

/** A task that ended, as its last poll read it: `updatedAt` is its previous poll when `polls` > 0. */
export type EndedTask = PlannedTask & Pick<MediaTask, 'polls' | 'updatedAt'>;

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

  /** A task's plan from the history now (null: the plain interval); none where the upstream calls back. */
  async plan(task: PlannedTask, callbacks: boolean): Promise<PollPlan | null> {
    if (callbacks) return null;
    const history = await this.history.read(scopeOf(task)).catch(() => null);
    return pollPlanOf(history, this.env.MEDIA_POLL_INTERVAL_MS);
  }

  delayMs(task: PlannedTask, options: { plan: PollPlan | null; progress: number | null; callbacks: boolean; now?: number }): number {
    return nextPollDelayMs({
      nowMs: options.now ?? Date.now(),
      startedAtMs: task.createdAt.getTime(),
      deadlineAtMs: task.deadlineAt.getTime(),
      intervalMs: this.env.MEDIA_POLL_INTERVAL_MS,
      maxBackoffMs: this.env.MEDIA_POLL_MAX_BACKOFF_MS,
      plan: options.callbacks ? null : options.plan,
      progress: options.progress !== null && options.progress > 0 ? options.progress : null,
      callbackSafetyNetMs: options.callbacks ? this.env.MEDIA_CALLBACK_POLL_MS : null,
    });
  }

  /**
   * Adds a task that just succeeded to its history: the time from accept to midway between the poll
   * before and the one that saw the end (to the end seen when no poll came before), so what is learned
   * does not grow with the spacing of the polls that learned it.
   */
  async learn(task: EndedTask, endedAt = Date.now()): Promise<void> {
    const before = task.polls > 0 ? Math.min(endedAt, Math.max(task.createdAt.getTime(), task.updatedAt.getTime())) : endedAt;
    await this.history
      .record(scopeOf(task), (before + endedAt) / 2 - task.createdAt.getTime())
      .catch((error: unknown) => this.logger.warn(`poll history not updated: ${(error as Error).message}`));
  }
}

function scopeOf(task: PlannedTask): HistoryScope {
  return { channelId: task.channelId ?? '-', model: task.model, kind: `${task.job.output}-${task.job.nativeKind}` };
}
