import { USAGE_RETENTION_MS, usageStreamNames, type UsageEvent, type UsageKind, type UsageResult } from '@gateway/contracts';
import { encodeJson, ensureWorkQueueStream, publishToStream, type NatsBus } from '@gateway/platform';
import type { TaskHold, TaskQuantity } from './task-hold';

/** A task that ended, as its usage record says it: what it was, what it produced, what it was charged. */
export interface EndedTask {
  /** The task's server id: the record's subject, and its id when the task holds nothing. */
  id: string;
  kind: Extract<UsageKind, 'media_task' | 'music_task' | 'images'>;
  tenantId: string;
  keyId: string;
  modelId: string;
  channelId: string | null;
  family: string;
  route: string;
  result: UsageResult;
  /** The upstream's status or the gateway's, for the row's status column. */
  status: number;
  produced: TaskQuantity;
  /** The settlement's charge (null when nothing was settled: released, or billing off). */
  charged: bigint | null;
  hold: TaskHold | null;
  clientRequestId?: string | null;
  createdAt: Date;
}

/**
 * A task's usage event: keyed by its hold's id (the id its ledger entries carry) or, without a hold, the
 * task's id, so however often it is published the row is written once.
 */
export function taskUsageEvent(task: EndedTask, now = Date.now()): UsageEvent {
  const money = task.hold !== null && !task.hold.perRequest;
  return {
    requestId: task.hold?.holdId ?? task.id,
    ...(task.clientRequestId ? { clientRequestId: task.clientRequestId.slice(0, 128) } : {}),
    tenantId: task.tenantId,
    keyId: task.keyId,
    modelId: task.modelId,
    channelId: task.channelId,
    family: task.family,
    route: task.route,
    promptTokens: 0,
    completionTokens: 0,
    ...(task.produced.seconds !== undefined ? { seconds: task.produced.seconds } : {}),
    ...(task.produced.images !== undefined ? { images: task.produced.images } : {}),
    tasks: task.produced.tasks ?? 1,
    latencyMs: Math.max(0, now - task.createdAt.getTime()),
    outcome: task.result,
    status: task.status,
    at: task.createdAt.toISOString(),
    kind: task.kind,
    subjectId: task.id,
    ...(money ? { costMicros: (task.charged ?? 0n).toString() } : {}),
  };
}

/**
 * Publishes a task's usage record onto the durable usage stream the chat service writes, once its billing
 * has ended (settled or released). The event carries no settlement: the task's own terminal move ended the
 * hold. The stream dedupes by the task's id and the writer keys the row by it, so the sweeper billing a
 * task again, or two workers racing, leave one row.
 */
export class TaskUsagePublisher {
  private readonly names: ReturnType<typeof usageStreamNames>;
  private streamReady: Promise<void> | null = null;

  constructor(private readonly bus: NatsBus) {
    this.names = usageStreamNames(bus.prefix);
  }

  async record(task: EndedTask): Promise<void> {
    this.streamReady ??= ensureWorkQueueStream(this.bus.connection, this.names.stream, this.names.subject, USAGE_RETENTION_MS).catch((error: Error) => {
      this.streamReady = null;
      throw error;
    });
    await this.streamReady;
    const data = encodeJson({ events: [taskUsageEvent(task)], closes: [] });
    await publishToStream(this.bus, this.names.subject, data, { stream: this.names.stream, msgID: `task+${task.id}` });
  }
}
