import type { EndedTask, TaskBilling, TaskHold } from '@gateway/billing';
import type { UsageResult } from '@gateway/contracts';
import type { MusicTaskRow } from '../tasks/music-task.repository';

/** An ended music task's usage record: one task produced on SUCCESS, charged at its hold's price; nothing otherwise. */
export function endedMusicTask(task: MusicTaskRow, hold: TaskHold | null, billing: TaskBilling): EndedTask {
  const succeeded = task.status === 'SUCCESS';
  const result: UsageResult = succeeded ? 'succeeded' : /deadline/i.test(task.errorMessage ?? '') ? 'expired' : 'failed';
  const produced = { tasks: succeeded ? 1 : 0 };
  return {
    id: task.id,
    kind: 'music_task',
    tenantId: task.tenantId,
    keyId: task.keyId,
    modelId: task.model,
    channelId: task.channelId,
    family: 'music',
    route: task.route,
    result,
    status: succeeded ? 200 : (task.errorCode ?? 500),
    produced,
    charged: hold && succeeded ? billing.costOf(hold, produced) : null,
    hold,
    clientRequestId: task.clientRequestId,
    createdAt: task.createdAt,
  };
}
