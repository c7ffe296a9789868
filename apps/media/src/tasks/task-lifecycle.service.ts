import { TaskBilling, TaskUsagePublisher } from '@gateway/billing';
import { SUBJECTS, type MediaTaskEndedEvent } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import type { MediaAsset, MediaUsage } from '@gateway/providers';
import { Injectable, Logger } from '@nestjs/common';
import { ResultStoreService } from '../upstream/result-store.service';
import { MediaTaskRepository, type MediaTask } from './media-task.repository';
import { endedMediaTask } from './media-usage';

/**
 * How a task ends, wherever it ends (the api role for synchronous answers, a worker's poll, the sweeper):
 * results stored first, then the terminal compare-and-swap, and only its winner settles or releases the
 * billing hold, so a task is billed exactly once however many workers race. The winner then broadcasts
 * the end, for a reply waiting on it (a synchronous image generation).
 */
@Injectable()
export class TaskLifecycleService {
  private readonly logger = new Logger('media');

  constructor(
    private readonly tasks: MediaTaskRepository,
    private readonly results: ResultStoreService,
    private readonly billing: TaskBilling,
    private readonly bus: NatsBus,
    private readonly usage: TaskUsagePublisher,
  ) {}

  /** Stores the results and ends the task succeeded; true when this call ended it. */
  async succeed(task: MediaTask, assets: readonly MediaAsset[], usage: MediaUsage): Promise<boolean> {
    const stored = await this.results.ingest(task.tenantId, task.id, assets);
    const produced = {
      seconds: task.job.output === 'video' ? (usage.seconds ?? task.job.seconds) : undefined,
      images: task.job.output === 'image' ? (usage.images ?? stored.length) : undefined,
    };
    const won = await this.tasks.finish(task.id, { state: 'succeeded', results: stored, usage: produced });
    if (won) await this.billAndAnnounce({ ...task, state: 'succeeded', usage: produced });
    return won;
  }

  /**
   * Ends the task failed and gives its whole hold back; true when this call ended it. `message` is what
   * the tenant reads (see task-failure.ts); `cause`, the internal error behind it, goes to the log only.
   */
  async fail(task: MediaTask, code: string, message: string, cause?: unknown): Promise<boolean> {
    const won = await this.tasks.finish(task.id, { state: 'failed', errorCode: code, errorMessage: message });
    if (won) {
      const detail = cause === undefined ? '' : ` (${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)})`;
      this.logger.warn(`media task ${task.id} of tenant ${task.tenantId} failed: ${code}: ${message}${detail}`);
      await this.billAndAnnounce({ ...task, state: 'failed', errorCode: code });
    }
    return won;
  }

  /** Billed before the broadcast, so a reply sent on it finds the hold already ended; announced even if billing failed (the sweeper bills it). */
  private async billAndAnnounce(task: MediaTask): Promise<void> {
    try {
      await this.bill(task);
    } finally {
      const event: MediaTaskEndedEvent = { taskId: task.id };
      this.bus.publish(SUBJECTS.media.taskEnded, event);
    }
  }

  /**
   * Ends an ended task's hold as its state says (settled at what it produced, or released) and marks it
   * billed, its usage record published in between. Run by the winner of the terminal move, and again by
   * the sweeper for a task whose worker died in between: the wallet ends a hold once, so a second run
   * charges nothing, and the usage record is keyed by the task's id, so it is written once.
   */
  async bill(task: MediaTask): Promise<void> {
    if (task.hold) {
      if (task.state === 'succeeded') {
        await this.billing.settle(task.hold, { seconds: task.usage?.seconds, images: task.usage?.images, tasks: 1 }, `media ${task.family}`);
      } else {
        await this.billing.release(task.hold, `media ${task.errorCode ?? task.state}`.slice(0, 120));
      }
    }
    await this.usage.record(endedMediaTask(task, this.billing));
    if (!task.hold) return;
    await this.tasks.markBilled(task.id);
  }
}
