import { StoredImagesReply, SUBJECTS, type MediaImageGeneratePayload } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import type { PreparedCall } from './oaic-request.service';

/** What the media service may take beyond its wait to answer (its last row read, the reply's hop). */
const REPLY_SLACK_MS = 15_000;

/**
 * Images of a native-media model: the media service creates the native image task, holds and bills it,
 * and answers once it ends, so no chat reservation or usage event is made here. The answer names stored
 * images for the edge to inline when `b64_json` was asked for; bytes never ride NATS.
 */
@Injectable()
export class OaicMediaImagesService {
  constructor(
    private readonly bus: NatsBus,
    @Inject(CHAT_ENV) private readonly env: ChatEnv,
  ) {}

  generate(call: PreparedCall<'images'>, origin: string): Promise<StoredImagesReply> {
    call.metered.handOff();
    const { caller } = call;
    const payload: MediaImageGeneratePayload = {
      requestId: caller.requestId,
      ...(caller.clientRequestId === undefined ? {} : { clientRequestId: caller.clientRequestId }),
      tenantId: caller.tenantId,
      keyId: caller.keyId,
      keyKind: caller.keyKind,
      route: caller.route,
      origin,
      body: call.body,
      waitMs: this.env.MEDIA_IMAGE_SYNC_TIMEOUT_MS,
    };
    return this.bus.request(SUBJECTS.media.imageGenerate, payload, StoredImagesReply, { timeoutMs: this.env.MEDIA_IMAGE_SYNC_TIMEOUT_MS + REPLY_SLACK_MS });
  }
}
