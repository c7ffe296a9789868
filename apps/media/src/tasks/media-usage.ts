import type { EndedTask, TaskBilling } from '@gateway/billing';
import type { UsageResult } from '@gateway/contracts';
import type { MediaTask } from './media-task.repository';

/** How an ended media task's usage record reads its end: a task past its deadline expired, one cancelled was cancelled. */
function resultOf(task: MediaTask): UsageResult {
  if (task.state === 'succeeded') return 'succeeded';
  if (task.state === 'cancelled') return 'cancelled';
  return task.errorCode === 'deadline_exceeded' ? 'expired' : 'failed';
}

const STATUS: Record<UsageResult, number> = { succeeded: 200, failed: 502, refunded: 200, cancelled: 499, expired: 504 };

/**
 * An ended media task's usage record: what it produced and what its settlement charges under its hold's
 * prices (the same figure whichever process settles it, so a record written by the sweeper says what
 * the first settlement charged).
 */
export function endedMediaTask(task: MediaTask, billing: TaskBilling): EndedTask {
  const result = resultOf(task);
  const produced = result === 'succeeded' ? { seconds: task.usage?.seconds, images: task.usage?.images, tasks: 1 } : { tasks: 0 };
  return {
    id: task.id,
    // An image generation answered synchronously (oaic images) is an images request; every other route creates a task.
    kind: task.route === 'oaic.images.generations' ? 'images' : 'media_task',
    tenantId: task.tenantId,
    keyId: task.keyId,
    modelId: task.model,
    channelId: task.channelId,
    family: task.family,
    route: task.route,
    result,
    status: STATUS[result],
    produced,
    charged: task.hold && result === 'succeeded' ? billing.costOf(task.hold, produced) : null,
    hold: task.hold,
    clientRequestId: task.clientRequestId,
    createdAt: task.createdAt,
  };
}
