import {
  GatewayError,
  MUSIC_CALLBACK_TYPES,
  MUSIC_ROUTES,
  isMusicVerb,
  type MusicCallbackType,
  type MusicTaskStatus,
  type MusicVerb,
} from '@gateway/contracts';
import { TaskBilling, TaskHold, TaskUsagePublisher } from '@gateway/billing';
import type { MusicProgress } from '@gateway/providers';
import { WebhookOutbox } from '@gateway/webhooks';
import { Injectable, Logger } from '@nestjs/common';
import { MusicAssetsService } from '../assets/music-assets.service';
import { EMPTY_RESULT, StoredMusicResult } from '../tasks/music-result';
import { MusicTaskRepository, type MusicTaskRow } from '../tasks/music-task.repository';
import { callbacksOwed, isTerminal, moveFor } from '../tasks/music-task.state';
import { endedMusicTask } from './music-usage';

/** How many times a move is retried when another writer moved the task in between. */
const CAS_ROUNDS = 4;

export function verbOf(task: MusicTaskRow): MusicVerb {
  const verb = task.route.replace(/^music\./, '');
  if (!isMusicVerb(verb)) throw new GatewayError('internal', `music task ${task.id} names no music route (${task.route})`);
  return verb;
}

/**
 * Applies what an upstream reported about a task (by callback or by polling) through the state machine:
 * results copied into storage, the move made by compare-and-swap, billing ended once by the writer that
 * won the terminal move, and the callbacks the task's state owes handed to the webhook outbox. Those are
 * handed over again by every report that finds the task already there or beyond (the outbox records each
 * once): a move whose publishing never happened (the process died, Postgres or Redis failed) is made good
 * by the next duplicate callback or poll instead of being lost with the move.
 */
@Injectable()
export class MusicProgressService {
  private readonly logger = new Logger('music');

  constructor(
    private readonly tasks: MusicTaskRepository,
    private readonly assets: MusicAssetsService,
    private readonly outbox: WebhookOutbox,
    private readonly billing: TaskBilling,
    private readonly usage: TaskUsagePublisher,
  ) {}

  /** Whether the report moved the task; a stale, duplicate or late report changes nothing. `known`: the row as just read. */
  async apply(taskId: string, progress: MusicProgress, known?: MusicTaskRow): Promise<boolean> {
    for (let round = 0; round < CAS_ROUNDS; round++) {
      const task = round === 0 && known ? known : await this.tasks.find(taskId);
      if (!task) return false;
      const current = task.status as MusicTaskStatus;
      const stages = MUSIC_ROUTES[verbOf(task)].stages;
      const move = moveFor(current, progress.stage, stages);
      if (!move) {
        await this.callBack(task, callbacksOwed(current, stages));
        return false;
      }
      const failed = move.to === 'GENERATE_AUDIO_FAILED';
      const stored = StoredMusicResult.safeParse(task.result);
      const result = failed ? undefined : await this.assets.ingest(task, progress, stored.success ? stored.data : EMPTY_RESULT);
      const data = {
        result,
        upstreamTaskId: task.upstreamTaskId ?? progress.upstreamTaskId,
        errorCode: progress.error?.code ?? null,
        errorMessage: progress.error?.message ?? null,
      };
      if (!(await this.tasks.move(task.id, current, move.to, data, isTerminal(move.to)))) continue;
      const moved: MusicTaskRow = { ...task, ...data, status: move.to, result: (result ?? task.result) as MusicTaskRow['result'] };
      // Independent of each other, so side by side: the upstream's callback is answered one round trip sooner.
      // Every stage reached so far, not only the move's own: one an earlier move failed to publish comes along.
      await Promise.all([this.endBilling(moved), this.callBack(moved, callbacksOwed(move.to, stages))]);
      return true;
    }
    return false;
  }

  /** Hands the outbox every callback the task's state owes (nothing for one pending or failed); cheap when all are recorded. */
  async publishOwed(task: MusicTaskRow): Promise<void> {
    await this.callBack(task, callbacksOwed(task.status as MusicTaskStatus, MUSIC_ROUTES[verbOf(task)].stages));
  }

  /** Fails an open task (creation refused upstream, or its deadline passed); false when it had already ended. */
  async fail(task: MusicTaskRow, to: 'CREATE_TASK_FAILED' | 'GENERATE_AUDIO_FAILED', code: number, message: string): Promise<boolean> {
    for (let round = 0; round < CAS_ROUNDS; round++) {
      const current = (round === 0 ? task : await this.tasks.find(task.id))!;
      if (isTerminal(current.status as MusicTaskStatus)) return false;
      if (await this.tasks.move(task.id, current.status as MusicTaskStatus, to, { errorCode: code, errorMessage: message }, true)) {
        await this.endBilling((await this.tasks.find(task.id))!);
        return true;
      }
    }
    return false;
  }

  /**
   * An ended task whose billing is still owed (its terminal move's writer died or failed before the end
   * of it) billed now; true when nothing is owed any more. Every step is idempotent: the wallet ends a
   * hold once and the usage record is written once under its id, however often this runs.
   */
  async billIfOwed(task: MusicTaskRow): Promise<boolean> {
    if (!isTerminal(task.status as MusicTaskStatus) || task.billedAt) return true;
    return this.endBilling(task);
  }

  /**
   * Settles on SUCCESS, releases on a failure, writes the task's usage record, then marks it billed; the
   * writer that won the terminal move calls this, and the poller again while the mark is missing. False
   * when a step failed: the task's next poll round tries again (the hold's deadline ends it regardless).
   */
  private async endBilling(task: MusicTaskRow): Promise<boolean> {
    const hold = TaskHold.safeParse(task.hold);
    if (!isTerminal(task.status as MusicTaskStatus)) return true;
    try {
      if (hold.success) {
        if (task.status === 'SUCCESS') await this.billing.settle(hold.data, { tasks: 1 }, `music ${task.route}`);
        else await this.billing.release(hold.data, `music task ${task.status}`);
      }
      await this.usage.record(endedMusicTask(task, hold.success ? hold.data : null, this.billing));
      await this.tasks.markBilled(task.id);
      return true;
    } catch (error) {
      this.logger.error(`ending the billing of music task ${task.id} failed, its next poll round tries again: ${(error as Error).message}`);
      return false;
    }
  }

  private async callBack(task: MusicTaskRow, callbacks: readonly MusicCallbackType[]): Promise<void> {
    if (callbacks.length === 0) return;
    const view = this.assets.view(task);
    const { sunoData, files, details } = view.response;
    const data = sunoData.length > 0 ? sunoData : { ...files, ...details };
    await this.outbox.publish(
      callbacks.map((callbackType) => ({
        tenantId: task.tenantId,
        subjectId: task.id,
        eventType: callbackType,
        seq: MUSIC_CALLBACK_TYPES.indexOf(callbackType),
        url: task.callBackUrl,
        payload: { code: 200, msg: 'success', data: { callbackType, taskId: task.id, data } },
      })),
    );
  }
}
