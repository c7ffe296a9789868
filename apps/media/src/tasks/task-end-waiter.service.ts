import { MediaTaskEndedEvent, SUBJECTS } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'nats';
import { MediaTaskRepository, type MediaTask } from './media-task.repository';
import { isTerminal } from './media-task.state';

/** Between these reads of the waited-for tasks' rows, in case a broadcast was lost (NATS core is at most once). */
const FALLBACK_READ_MS = 2000;

interface Waiter {
  resolve(task: MediaTask | null): void;
  timer: NodeJS.Timeout;
}

/**
 * Lets a reply wait for a task's end without holding anything but a promise: the process that moves a
 * task to a terminal state broadcasts `media.task.ended`, and the replica waiting for that task reads
 * the row and answers. A read of every waited-for task every couple of seconds covers a lost broadcast,
 * and one at the deadline decides; a task not ended by then resolves null (and runs on, billed as usual).
 */
@Injectable()
export class TaskEndWaiter implements OnModuleDestroy {
  private readonly logger = new Logger('media');
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly subscription: Subscription;
  private fallback: NodeJS.Timeout | undefined;
  protected readonly fallbackReadMs: number = FALLBACK_READ_MS;

  constructor(
    bus: NatsBus,
    private readonly tasks: MediaTaskRepository,
  ) {
    this.subscription = bus.subscribe(SUBJECTS.media.taskEnded, (payload) => {
      const event = MediaTaskEndedEvent.safeParse(payload);
      if (event.success && this.waiting.has(event.data.taskId)) void this.settle([event.data.taskId]);
    });
  }

  onModuleDestroy(): void {
    this.subscription.unsubscribe();
    clearInterval(this.fallback);
  }

  /** The task once it has ended, or null when it has not within `timeoutMs`. */
  wait(taskId: string, timeoutMs: number): Promise<MediaTask | null> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => void this.expire(taskId, waiter), timeoutMs),
      };
      this.waiting.set(taskId, [...(this.waiting.get(taskId) ?? []), waiter]);
      this.fallback ??= setInterval(() => void this.readAll(), this.fallbackReadMs).unref();
    });
  }

  /** Reads the tasks and answers the waiters of those that have ended. */
  private async settle(taskIds: string[]): Promise<void> {
    try {
      for (const task of await this.tasks.findEnded(taskIds)) this.answer(task.id, task);
    } catch (error) {
      this.logger.warn(`reading ended tasks failed: ${(error as Error).message}`);
    }
  }

  private readAll(): Promise<void> {
    if (this.waiting.size === 0) {
      clearInterval(this.fallback);
      this.fallback = undefined;
      return Promise.resolve();
    }
    return this.settle([...this.waiting.keys()]);
  }

  /** The deadline: one last read decides between the task and null. */
  private async expire(taskId: string, waiter: Waiter): Promise<void> {
    let task: MediaTask | null = null;
    try {
      task = await this.tasks.findById(taskId);
    } catch (error) {
      this.logger.warn(`reading task ${taskId} failed: ${(error as Error).message}`);
    }
    this.drop(taskId, waiter);
    waiter.resolve(task && isTerminal(task.state) ? task : null);
  }

  private answer(taskId: string, task: MediaTask): void {
    const waiters = this.waiting.get(taskId) ?? [];
    this.waiting.delete(taskId);
    for (const waiter of waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(task);
    }
  }

  private drop(taskId: string, waiter: Waiter): void {
    const rest = (this.waiting.get(taskId) ?? []).filter((w) => w !== waiter);
    if (rest.length > 0) this.waiting.set(taskId, rest);
    else this.waiting.delete(taskId);
  }
}
