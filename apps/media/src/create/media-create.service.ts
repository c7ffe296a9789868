import { TaskBilling, TaskUsagePublisher, type TaskHold } from '@gateway/billing';
import { GatewayError, MediaCreatePayload, parseOrThrow, type BillingMode, type BudgetRule } from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import { SIGNED_URLS, type SignedUrls } from '@gateway/platform/infra';
import type { MediaAsset, MediaUsage } from '@gateway/providers';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import type { DecodedCreate } from '../families/family-codec';
import { FAMILY_CODECS } from '../families/family-codecs';
import { mediaRouteOf, type MediaFamily } from '../families/media-route';
import { MediaTaskRepository, type MediaTask } from '../tasks/media-task.repository';
import { MediaCallbackService } from '../callbacks/media-callback.service';
import { PollPlanner } from '../schedule/poll-planner.service';
import { PollScheduler } from '../tasks/poll-scheduler.service';
import { TaskLifecycleService } from '../tasks/task-lifecycle.service';
import { TASK_FAILURE_MESSAGES } from '../tasks/task-failure';
import { MediaUpstreamService } from '../upstream/media-upstream.service';
import { resultLinks } from './result-links';

/** A hold outlives its task's deadline by this much, so the hold sweeper never frees a task still billable. */
const HOLD_SLACK_MS = 10 * 60_000;

/** Who starts a task, on which route, and where its rows say it is read: what every create path knows. */
export interface TaskStart {
  tenantId: string;
  keyId: string;
  keyKind: BillingMode;
  family: MediaFamily;
  /** The route id it was created on. */
  route: string;
  queryKind: string;
  /** The id's prefix: `video` (oaic videos), `img` (oaic images), `task` (the rest). */
  idPrefix: 'video' | 'img' | 'task';
  /** The x-request-id the client sent, carried to the task's usage record. */
  clientRequestId?: string;
  /** The budgets of its key and project: the task is held against them like a chat request. */
  budgets?: BudgetRule[];
}

/**
 * Creating a task: decode and check the request in its family's terms, hold its price, submit it upstream
 * (a refusal comes back at once, nothing charged), record it and queue its first poll.
 */
@Injectable()
export class MediaCreateService {
  private readonly logger = new Logger('media');

  constructor(
    private readonly catalog: CatalogCache,
    private readonly billing: TaskBilling,
    private readonly upstream: MediaUpstreamService,
    private readonly tasks: MediaTaskRepository,
    private readonly scheduler: PollScheduler,
    private readonly lifecycle: TaskLifecycleService,
    @Inject(SIGNED_URLS) private readonly links: SignedUrls,
    @Inject(MEDIA_ENV) private readonly env: MediaEnv,
    private readonly usage: TaskUsagePublisher,
    private readonly planner: PollPlanner,
    private readonly callbacks: MediaCallbackService,
  ) {}

  async create(payload: unknown): Promise<Record<string, unknown>> {
    const call = parseOrThrow(MediaCreatePayload, payload);
    const route = mediaRouteOf(call.route);
    if (!route.output) throw GatewayError.invalid(`The route ${call.route} does not create tasks.`, 'route');
    const codec = FAMILY_CODECS[route.family];
    const start: TaskStart = { ...call, family: route.family, queryKind: route.queryKind, idPrefix: route.family === 'oaic' ? 'video' : 'task' };
    const task = await this.start(start, codec.decode(route, call.body));
    return codec.created(task, { links: resultLinks(task, this.links.signer, call.origin, this.links.ttlSeconds), requestId: call.requestId });
  }

  /** Holds, submits and records one task; it comes back as stored (already ended when the upstream answered at once). */
  async start(start: TaskStart, { catalogId, modelParam, capability, job }: DecodedCreate): Promise<MediaTask> {
    const { model, channels } = await this.catalog.route(start, catalogId, capability, { param: modelParam });
    const id = `${start.idPrefix}_${randomUUID().replace(/-/g, '')}`;
    const deadlineMs = this.env.MEDIA_TASK_DEADLINE_SECONDS * 1000;
    const quantity = job.output === 'video' ? { seconds: job.seconds ?? 5, tasks: 1 } : { images: job.images ?? 1, tasks: 1 };
    const hold = await this.billing.hold({
      holdId: id,
      tenantId: start.tenantId,
      keyKind: start.keyKind,
      model,
      quantity,
      holdTtlMs: deadlineMs + HOLD_SLACK_MS,
      budgets: start.budgets,
    });
    let task: MediaTask | null = null;
    try {
      const { channel, result } = await this.upstream.submit(channels, job, () => this.callbacks.urlFor(id));
      task = await this.tasks.create({
        id,
        tenantId: start.tenantId,
        keyId: start.keyId,
        family: start.family,
        route: start.route,
        queryKind: start.queryKind,
        model: model.id,
        channelId: channel.id,
        protocol: channel.protocol,
        upstreamTaskId: result.kind === 'task' ? result.upstreamTaskId : null,
        state: 'submitted',
        job,
        hold,
        clientRequestId: start.clientRequestId ?? null,
        deadlineAt: new Date(Date.now() + deadlineMs),
      });
      if (result.kind === 'task') {
        // The answer does not wait for the queue: the row is the task's truth, and a first poll that
        // failed to queue is put back by the sweeper's revival of tasks nobody polls.
        const planned = task;
        // Queued once the reply has left: the queue's job costs CPU the reply would otherwise wait behind.
        setTimeout(() => {
          const callbacks = this.planner.callbacksOn(channel);
          this.planner
            .plan(planned, callbacks)
            .then((plan) => this.scheduler.schedule(planned.id, 1, this.planner.delayMs(planned, { plan, progress: null, callbacks }), plan))
            .catch((error: unknown) => this.logger.warn(`media task ${id}: first poll not queued: ${(error as Error).message}`));
        }, 0);
      } else {
        await this.finishAtOnce(task, result.assets, result.usage);
        task = (await this.tasks.findById(task.id))!;
      }
    } catch (error) {
      if (hold) await this.billing.release(hold, 'media submit failed');
      if (!task) await this.recordRefused(start, id, model.id, hold);
      throw error;
    }
    return task;
  }

  /** A submit the upstream refused leaves no task row: its usage record says it failed, nothing charged. */
  private async recordRefused(start: TaskStart, id: string, modelId: string, hold: TaskHold | null): Promise<void> {
    const { tenantId, keyId, family, route, clientRequestId } = start;
    const kind = route === 'oaic.images.generations' ? 'images' : 'media_task';
    const ended = { id, kind, tenantId, keyId, modelId, channelId: null, family, route, result: 'failed', status: 502, clientRequestId } as const;
    await this.usage
      .record({ ...ended, produced: { tasks: 0 }, charged: null, hold, createdAt: new Date() })
      .catch((error: unknown) => this.logger.warn(`media task ${id}: usage record not stored: ${(error as Error).message}`));
  }

  /** A synchronous upstream answer: the task ends here, and a failure to store its files fails the request. */
  private async finishAtOnce(task: MediaTask, assets: readonly MediaAsset[], usage: MediaUsage): Promise<void> {
    try {
      await this.lifecycle.succeed(task, assets, usage);
    } catch (error) {
      await this.lifecycle.fail(task, 'ingest_failed', TASK_FAILURE_MESSAGES.ingest_failed, error);
      throw new GatewayError('upstream_error', 'The generated files could not be fetched from the upstream.');
    }
  }
}
