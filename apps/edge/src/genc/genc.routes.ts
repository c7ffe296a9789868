import { SUBJECTS, type GencCallPayload } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { OaicRelayService } from '../oaic/oaic-relay.service';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';

const GENERATE = SUBJECTS.chat.genc.generate;

/**
 * The genc family's routes: the model comes from the path, streaming from the route (its `alt=sse`
 * query is checked by the route table); both reach the chat service on one subject.
 */
@Injectable()
export class GencRoutes {
  constructor(private readonly relay: OaicRelayService) {}

  @RouteHandler('genc.generate')
  async generate(request: RouteRequest): Promise<unknown> {
    return this.relay.json(GENERATE, request, await this.payload(request, false));
  }

  @RouteHandler('genc.stream')
  async stream(request: RouteRequest): Promise<unknown> {
    return this.relay.sse(GENERATE, request, await this.payload(request, true));
  }

  private async payload(request: RouteRequest, stream: boolean): Promise<GencCallPayload> {
    return { ...(await this.relay.payload(request)), model: request.params.model!, stream };
  }
}
