import { GatewayError, StoredImagesReply, type ImagesResponse, type OaicJsonReply, type StoredImageRef } from '@gateway/contracts';
import type { ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { MEDIA_EDGE_ENV, type MediaEdgeEnv } from '../media/media-env';
import { publicOriginOf } from '../media/public-origin';
import type { RouteRequest } from '../routing/route-request';
import { OAIC_OBJECT_STORE } from './oaic-env';
import { ChatRelay } from '../relay/chat-relay.service';

/**
 * `POST /oaic/v1/images/generations`, relayed to the chat service with the public origin (a native-media
 * model's images come back as signed gateway links on it). A `b64_json` image the media service stored
 * comes back as where it waits, and is read from storage and inlined here: bytes never ride NATS.
 */
@Injectable()
export class OaicImagesService {
  constructor(
    private readonly relay: ChatRelay,
    @Inject(OAIC_OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(MEDIA_EDGE_ENV) private readonly env: MediaEdgeEnv,
  ) {}

  async generate(subject: string, request: RouteRequest): Promise<OaicJsonReply | ImagesResponse> {
    const payload = { ...(await this.relay.payload(request)), origin: publicOriginOf(request, this.env.PUBLIC_BASE_URL) };
    const reply = await this.relay.json(subject, request, payload);
    const stored = StoredImagesReply.safeParse(reply);
    if (!stored.success || !stored.data.data.some((item) => 'stored' in item)) return reply;
    const data = await Promise.all(stored.data.data.map(async (item) => ('stored' in item ? { b64_json: await this.base64Of(item.stored, request) } : item)));
    const images: ImagesResponse = { created: stored.data.created, data };
    return images;
  }

  /** Only the caller's own tenant's media objects are read, whatever the reply names. */
  private async base64Of(ref: StoredImageRef, request: RouteRequest): Promise<string> {
    if (!ref.objectKey.startsWith(`media/${request.key.tenantId}/`)) throw new GatewayError('internal', 'The image was stored under an unexpected key.');
    const chunks: Buffer[] = [];
    for await (const chunk of await this.store.get(ref.objectKey)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('base64');
  }
}
