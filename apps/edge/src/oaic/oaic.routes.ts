import { SUBJECTS } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { AudioStorageRelayService } from './audio-storage-relay.service';
import { OaicImagesService } from './oaic-images.service';

const OAIC = SUBJECTS.chat.oaic;

/**
 * The oaic routes that do work at the edge: images read back from storage, audio streamed to and from
 * storage. The family's other routes are relayed straight from the route table.
 */
@Injectable()
export class OaicRoutes {
  constructor(
    private readonly audio: AudioStorageRelayService,
    private readonly images: OaicImagesService,
  ) {}

  @RouteHandler('oaic.images.generations')
  generateImages(request: RouteRequest): Promise<unknown> {
    return this.images.generate(OAIC.images, request);
  }

  @RouteHandler('oaic.audio.speech')
  speech(request: RouteRequest): Promise<unknown> {
    return this.audio.speech(OAIC.speech, request);
  }

  @RouteHandler('oaic.audio.transcriptions')
  transcriptions(request: RouteRequest): Promise<unknown> {
    return this.audio.transcribe(OAIC.transcriptions, request, false);
  }

  @RouteHandler('oaic.audio.translations')
  translations(request: RouteRequest): Promise<unknown> {
    return this.audio.transcribe(OAIC.translations, request, true);
  }
}
