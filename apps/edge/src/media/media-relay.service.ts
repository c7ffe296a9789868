import { GatewayError, MediaCallbackReply, MediaContentReply, MediaTaskReply, SUBJECTS, type MediaCaller } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { servedObjectHeaders, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { callerOf } from '../relay/tenant-call';
import type { RouteRequest } from '../routing/route-request';
import { MEDIA_EDGE_ENV, MEDIA_OBJECT_STORE, type MediaEdgeEnv } from './media-env';
import { publicOriginOf } from './public-origin';

/**
 * The media calls of the edge's own media handlers (the caller with the public origin result links are
 * signed for): a create read at the edge, a completed video streamed out of storage, a vendor's callback.
 */
@Injectable()
export class MediaRelayService {
  constructor(
    private readonly bus: NatsBus,
    @Inject(MEDIA_EDGE_ENV) private readonly env: MediaEdgeEnv,
    @Inject(MEDIA_OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  private caller(request: RouteRequest): MediaCaller {
    return { ...callerOf(request), origin: publicOriginOf(request, this.env.PUBLIC_BASE_URL) };
  }

  private send(subject: string, request: RouteRequest, payload: unknown) {
    return this.bus.request(subject, payload, MediaTaskReply, {
      timeoutMs: this.env.MEDIA_TIMEOUT_MS,
      trace: request.raw.traceContext ?? undefined,
      onNote: (note) => (request.raw.replyNote = note),
    });
  }

  /** A create whose body the edge read itself (a video create sent as multipart). */
  create(request: RouteRequest, body: unknown): Promise<MediaTaskReply> {
    return this.send(SUBJECTS.media.create, request, { ...this.caller(request), body });
  }

  /** A vendor's task-end callback: the caller learns nothing beyond "not found" for a token this gateway did not issue. */
  async callback(token: string): Promise<void> {
    const { accepted } = await this.bus.request(SUBJECTS.media.callback, { token }, MediaCallbackReply, { timeoutMs: 10_000 });
    if (!accepted) throw GatewayError.notFound('No task answers to this callback URL.');
  }

  /** The completed video's bytes, streamed from storage with the bearer key (only the caller's own tenant's objects). */
  async content(request: RouteRequest, taskId: string): Promise<undefined> {
    const found = await this.bus.request(SUBJECTS.media.content, { ...this.caller(request), taskId }, MediaContentReply, {
      timeoutMs: this.env.MEDIA_TIMEOUT_MS,
    });
    if (!found.objectKey.startsWith(`media/${request.key.tenantId}/`)) throw new GatewayError('internal', 'The video was stored under an unexpected key.');
    const body = await this.store.get(found.objectKey);
    void request.reply
      .headers(servedObjectHeaders(found.contentType, { inline: true }))
      .header('content-length', String(found.size))
      .send(body);
    return undefined;
  }
}
