import { Inject, Injectable } from '@nestjs/common';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import { MediaTaskRepository } from '../tasks/media-task.repository';
import { PollScheduler } from '../tasks/poll-scheduler.service';
import { TaskLifecycleService } from '../tasks/task-lifecycle.service';
import { TASK_FAILURE_MESSAGES } from '../tasks/task-failure';

const BATCH = 500;
/** How long after its terminal move a task may wait for its winner to bill it before the sweeper does. */
const UNBILLED_GRACE_MS = 2000;

/**
 * The sweeper: fails live tasks past their deadline (their holds released), bills ended tasks whose
 * worker died before billing them, and puts a poll back on the
 * queue for live tasks nobody has polled for a long while (their job was lost with a Redis that went
 * away: the task's truth is in Postgres, Redis holds only queues).
 */
@Injectable()
export class MediaSweepService {
  constructor(
    private readonly tasks: MediaTaskRepository,
    private readonly scheduler: PollScheduler,
    private readonly lifecycle: TaskLifecycleService,
    @Inject(MEDIA_ENV) private readonly env: MediaEnv,
  ) {}

  async sweep(now = new Date()): Promise<{ expired: number; revived: number; billed: number }> {
    let expired = 0;
    for (const id of await this.tasks.overdue(now, BATCH)) {
      const task = await this.tasks.findById(id);
      if (task && (await this.lifecycle.fail(task, 'deadline_exceeded', TASK_FAILURE_MESSAGES.deadline_exceeded))) expired++;
    }
    // A second billing of a task whose winner is still billing it charges nothing (the wallet ends a hold once).
    const unbilled = await this.tasks.unbilled(new Date(now.getTime() - UNBILLED_GRACE_MS), BATCH);
    for (const id of unbilled) {
      const task = await this.tasks.findById(id);
      if (task) await this.lifecycle.bill(task);
    }
    const quiet = Math.max(60_000, this.env.MEDIA_POLL_MAX_BACKOFF_MS * 2);
    const stale = await this.tasks.stale(new Date(now.getTime() - quiet), BATCH);
    const bucket = Math.floor(now.getTime() / quiet);
    for (const id of stale) await this.scheduler.schedule(id, -bucket, 0);
    return { expired, revived: stale.length, billed: unbilled.length };
  }
}
