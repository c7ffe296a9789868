import { GatewayError, MediaCallbackReply, MediaContentReply, MediaTaskReply, SUBJECTS, type MediaCaller } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { servedObjectHeaders, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { clientRequestIdOf } from '../routing/request-id';
import type { RouteRequest } from '../routing/route-request';
import { MEDIA_EDGE_ENV, MEDIA_OBJECT_STORE, type MediaEdgeEnv } from './media-env';
import { publicOriginOf } from './public-origin';

/**
 * Carries media calls to the media service over NATS (the body parsed by the route's schema, the caller,
 * and the public origin result links are signed for), and streams a completed video out of storage.
 */
@Injectable()
export class MediaRelayService {
  constructor(
    private readonly bus: NatsBus,
    @Inject(MEDIA_EDGE_ENV) private readonly env: MediaEdgeEnv,
    @Inject(MEDIA_OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  private caller(request: RouteRequest): MediaCaller {
    const origin = publicOriginOf(request, this.env.PUBLIC_BASE_URL);
    const caller: MediaCaller = {
      requestId: request.requestId,
      tenantId: request.key.tenantId,
      keyId: request.key.keyId,
      keyKind: request.key.kind,
      route: request.route.id,
      origin,
    };
    const clientRequestId = clientRequestIdOf(request.raw.headers);
    return clientRequestId === undefined ? caller : { ...caller, clientRequestId };
  }

  private send(subject: string, request: RouteRequest, payload: unknown) {
    return this.bus.request(subject, payload, MediaTaskReply, {
      timeoutMs: this.env.MEDIA_TIMEOUT_MS,
      trace: request.raw.traceContext ?? undefined,
      onNote: (note) => (request.raw.replyNote = note),
    });
  }

  create(request: RouteRequest, body: unknown = request.body): Promise<MediaTaskReply> {
    return this.send(SUBJECTS.media.create, request, { ...this.caller(request), body });
  }

  get(request: RouteRequest, taskId: string): Promise<MediaTaskReply> {
    return this.send(SUBJECTS.media.get, request, { ...this.caller(request), taskId });
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
