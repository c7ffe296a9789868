import { TaskBilling } from '@gateway/billing';
import { GatewayError, MediaCreatePayload, parseOrThrow } from '@gateway/contracts';
import type { MediaAsset, MediaUsage } from '@gateway/providers';
import { UrlSigner } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MediaCatalogService } from '../catalog/media-catalog.service';
import { SIGNED_URL_TTL } from '../config/infra.module';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';
import { FAMILY_CODECS } from '../families/family-codecs';
import { mediaRouteOf } from '../families/media-route';
import { MediaTaskRepository, type MediaTask } from '../tasks/media-task.repository';
import { PollScheduler } from '../tasks/poll-scheduler.service';
import { TaskLifecycleService } from '../tasks/task-lifecycle.service';
import { MediaUpstreamService } from '../upstream/media-upstream.service';
import { resultLinks } from './result-links';

/** A hold outlives its task's deadline by this much, so the hold sweeper never frees a task still billable. */
const HOLD_SLACK_MS = 10 * 60_000;

/**
 * Creating a task: decode and check the request in its family's terms, hold its price, submit it upstream
 * (a refusal comes back at once, nothing charged), record it and queue its first poll.
 */
@Injectable()
export class MediaCreateService {
  constructor(
    private readonly catalog: MediaCatalogService,
    private readonly billing: TaskBilling,
    private readonly upstream: MediaUpstreamService,
    private readonly tasks: MediaTaskRepository,
    private readonly scheduler: PollScheduler,
    private readonly lifecycle: TaskLifecycleService,
    private readonly signer: UrlSigner,
    @Inject(SIGNED_URL_TTL) private readonly ttlSeconds: number,
    @Inject(MEDIA_ENV) private readonly env: MediaEnv,
  ) {}

  async create(payload: unknown): Promise<Record<string, unknown>> {
    const call = parseOrThrow(MediaCreatePayload, payload);
    const route = mediaRouteOf(call.route);
    if (!route.output) throw GatewayError.invalid(`The route ${call.route} does not create tasks.`, 'route');
    const codec = FAMILY_CODECS[route.family];
    const { catalogId, modelParam, capability, job } = codec.decode(route, call.body);
    const { model, channels } = await this.catalog.route(call.tenantId, catalogId, capability, modelParam);
    const id = `${route.family === 'oaic' ? 'video' : 'task'}_${randomUUID().replace(/-/g, '')}`;
    const deadlineMs = this.env.MEDIA_TASK_DEADLINE_SECONDS * 1000;
    const quantity = job.output === 'video' ? { seconds: job.seconds ?? 5, tasks: 1 } : { images: job.images ?? 1, tasks: 1 };
    const hold = await this.billing.hold({
      holdId: id,
      tenantId: call.tenantId,
      keyKind: call.keyKind,
      model,
      quantity,
      holdTtlMs: deadlineMs + HOLD_SLACK_MS,
    });
    let task: MediaTask;
    try {
      const { channel, result } = await this.upstream.submit(channels, job);
      task = await this.tasks.create({
        id,
        tenantId: call.tenantId,
        keyId: call.keyId,
        family: route.family,
        route: call.route,
        queryKind: route.queryKind,
        model: model.id,
        channelId: channel.id,
        protocol: channel.protocol,
        upstreamTaskId: result.kind === 'task' ? result.upstreamTaskId : null,
        state: 'submitted',
        job,
        hold,
        deadlineAt: new Date(Date.now() + deadlineMs),
      });
      if (result.kind === 'task') {
        await this.scheduler.schedule(task.id, 1);
      } else {
        await this.finishAtOnce(task, result.assets, result.usage);
        task = (await this.tasks.findById(task.id))!;
      }
    } catch (error) {
      if (hold) await this.billing.release(hold, 'media submit failed');
      throw error;
    }
    return codec.created(task, { links: resultLinks(task, this.signer, call.origin, this.ttlSeconds), requestId: call.requestId });
  }

  /** A synchronous upstream answer: the task ends here, and a failure to store its files fails the request. */
  private async finishAtOnce(task: MediaTask, assets: readonly MediaAsset[], usage: MediaUsage): Promise<void> {
    try {
      await this.lifecycle.succeed(task, assets, usage);
    } catch (error) {
      await this.lifecycle.fail(task, 'ingest_failed', (error as Error).message);
      throw new GatewayError('upstream_error', 'The generated files could not be fetched from the upstream.');
    }
  }
}
