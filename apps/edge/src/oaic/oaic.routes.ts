import { ResponseIdParam, SUBJECTS, parseOrThrow, type ResponseGetPayload } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { AudioStorageRelayService } from './audio-storage-relay.service';
import { OaicImagesService } from './oaic-images.service';
import { callerOf, OaicRelayService } from './oaic-relay.service';

const OAIC = SUBJECTS.chat.oaic;

function wantsStream(request: RouteRequest): boolean {
  return (request.body as { stream?: unknown } | undefined)?.stream === true;
}

/** The oaic family's routes (and their /v1 aliases): each one hands the parsed request to the chat service. */
@Injectable()
export class OaicRoutes {
  constructor(
    private readonly relay: OaicRelayService,
    private readonly audio: AudioStorageRelayService,
    private readonly images: OaicImagesService,
  ) {}

  @RouteHandler('oaic.chat')
  chat(request: RouteRequest): Promise<unknown> {
    return wantsStream(request) ? this.relay.sse(OAIC.chat, request) : this.relay.json(OAIC.chat, request);
  }

  @RouteHandler('oaic.completions')
  completions(request: RouteRequest): Promise<unknown> {
    return wantsStream(request) ? this.relay.sse(OAIC.completions, request) : this.relay.json(OAIC.completions, request);
  }

  @RouteHandler('oaic.responses.create')
  createResponse(request: RouteRequest): Promise<unknown> {
    return wantsStream(request) ? this.relay.sse(OAIC.responses, request) : this.relay.json(OAIC.responses, request);
  }

  @RouteHandler('oaic.responses.get')
  getResponse(request: RouteRequest): Promise<unknown> {
    const responseId = parseOrThrow(ResponseIdParam, request.params.response_id, 'response_id');
    const payload: ResponseGetPayload = { ...callerOf(request), responseId };
    return this.relay.json(OAIC.responseGet, request, payload);
  }

  @RouteHandler('oaic.embeddings')
  embeddings(request: RouteRequest): Promise<unknown> {
    return this.relay.json(OAIC.embeddings, request);
  }

  @RouteHandler('oaic.moderations')
  moderations(request: RouteRequest): Promise<unknown> {
    return this.relay.json(OAIC.moderations, request);
  }

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
