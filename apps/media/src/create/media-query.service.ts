import { GatewayError, MediaContentReply, MediaGetPayload, MediaTaskId, parseOrThrow } from '@gateway/contracts';
import { SIGNED_URLS, type SignedUrls } from '@gateway/platform/infra';
import { Inject, Injectable } from '@nestjs/common';
import { FAMILY_CODECS } from '../families/family-codecs';
import { mediaRouteOf, type MediaRoute } from '../families/media-route';
import { MediaTaskRepository, type MediaTask } from '../tasks/media-task.repository';
import { resultLinks } from './result-links';

/**
 * Reading tasks: a task is found only for its own tenant and on the query route of the family and kind
 * that created it; anything else, another tenant's id included, is the same 404.
 */
@Injectable()
export class MediaQueryService {
  constructor(
    private readonly tasks: MediaTaskRepository,
    @Inject(SIGNED_URLS) private readonly links: SignedUrls,
  ) {}

  async get(payload: unknown): Promise<Record<string, unknown>> {
    const call = parseOrThrow(MediaGetPayload, payload);
    const route = mediaRouteOf(call.route);
    const task = await this.find(route, call.tenantId, call.taskId);
    return FAMILY_CODECS[route.family].task(task, {
      links: resultLinks(task, this.links.signer, call.origin, this.links.ttlSeconds),
      requestId: call.requestId,
    });
  }

  /** Where a completed oaic video waits in storage, for the edge to stream with the bearer key. */
  async content(payload: unknown): Promise<MediaContentReply> {
    const call = parseOrThrow(MediaGetPayload, payload);
    const task = await this.find(mediaRouteOf(call.route), call.tenantId, call.taskId);
    const video = task.results.find((result) => result.kind === 'video');
    if (task.state !== 'succeeded' || !video) {
      throw GatewayError.notFound(`Video '${task.id}' has no content: its status is not completed.`, 'video_id');
    }
    return { objectKey: video.key, contentType: video.contentType, size: video.size };
  }

  private async find(route: MediaRoute, tenantId: string, taskId: string): Promise<MediaTask> {
    const param = route.family === 'oaic' ? 'video_id' : 'task_id';
    const found = MediaTaskId.safeParse(taskId).success ? await this.tasks.findForTenant(taskId, tenantId, route.family, route.queryKind) : null;
    if (!found) throw GatewayError.notFound(`No task '${taskId.slice(0, 128)}' was created on this route with this key's account.`, param);
    return found;
  }
}
