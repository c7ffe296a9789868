import { CatalogCache } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import type { PollPlan } from '../schedule/poll-plan';
import { PollPlanner } from '../schedule/poll-planner.service';
import { MediaTaskRepository } from '../tasks/media-task.repository';
import { isTerminal } from '../tasks/media-task.state';
import { PollScheduler } from '../tasks/poll-scheduler.service';
import { TaskLifecycleService } from '../tasks/task-lifecycle.service';
import { TASK_FAILURE_MESSAGES, upstreamFailureMessage } from '../tasks/task-failure';
import { MediaUpstreamService } from '../upstream/media-upstream.service';

/**
 * One poll of one task: ask the upstream, then record progress and schedule the next poll, or end the
 * task. A busy or failing upstream (429, 5xx, unreachable) leaves the task as it is and polls again
 * later with backoff. The next poll follows the task's plan, made at its create from what tasks like it
 * took (PollPlanner), or made now for a job that carries none; a task created before any history stays
 * on the plain interval, as a plan made from the few fast tasks ended since would be short. A hint poll
 * (the upstream called back) reads and moves the task the same way but leaves the chain of polls alone.
 * Idempotent: a poll of an ended task does nothing.
 */
@Injectable()
export class MediaPollService {
  constructor(
    private readonly tasks: MediaTaskRepository,
    private readonly catalog: CatalogCache,
    private readonly upstream: MediaUpstreamService,
    private readonly scheduler: PollScheduler,
    private readonly lifecycle: TaskLifecycleService,
    private readonly planner: PollPlanner,
  ) {}

  async poll(taskId: string, hint = false, carried?: PollPlan | null): Promise<void> {
    const task = await this.tasks.findById(taskId);
    if (!task || isTerminal(task.state)) return;
    if (task.deadlineAt.getTime() <= Date.now()) {
      await this.lifecycle.fail(task, 'deadline_exceeded', TASK_FAILURE_MESSAGES.deadline_exceeded);
      return;
    }
    const channel = task.channelId ? (await this.catalog.channels(task.model)).channels.find((c) => c.id === task.channelId) : undefined;
    if (!channel || !task.upstreamTaskId) {
      await this.lifecycle.fail(task, 'channel_missing', TASK_FAILURE_MESSAGES.channel_missing);
      return;
    }
    const result = await this.upstream.poll(channel, task.upstreamTaskId, task.job);
    const round = task.polls + 2;
    switch (result.state) {
      case 'deferred':
        await this.tasks.countPoll(task.id);
        if (!hint) await this.scheduler.schedule(task.id, round, this.scheduler.backoffMs(task.polls + 1, result.retryAfterSeconds), carried);
        return;
      case 'pending':
      case 'running': {
        await this.tasks.recordProgress(task.id, result.state === 'running' ? 'running' : task.state, result.progress);
        if (hint) return;
        const callbacks = this.planner.callbacksOn(channel);
        const plan = carried !== undefined ? carried : await this.planner.plan(task, callbacks);
        const delay = this.planner.delayMs(task, { plan, progress: result.progress ?? task.progress, callbacks });
        await this.scheduler.schedule(task.id, round, delay, plan);
        return;
      }
      case 'succeeded':
        if (await this.lifecycle.succeed(task, result.assets, result.usage)) await this.planner.learn(task);
        return;
      case 'failed':
        await this.lifecycle.fail(task, result.code, upstreamFailureMessage(result.message));
        return;
    }
  }
}
