import { Inject, Injectable } from '@nestjs/common';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { multipartLimitsOf, type MultipartLimits } from '../routing/multipart-form';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { MediaRelayService } from './media-relay.service';
import { readVideoCreateBody } from './video-create.body';

/**
 * The media routes that do work at the edge: a video create read from JSON or multipart, and a completed
 * video streamed out of storage. The other oaic videos, dsc and nativemedia routes are relayed from the route table.
 */
@Injectable()
export class MediaRoutes {
  private readonly limits: MultipartLimits;

  constructor(
    private readonly relay: MediaRelayService,
    @Inject(EDGE_ENV) env: EdgeEnv,
  ) {
    this.limits = multipartLimitsOf(env);
  }

  @RouteHandler('oaic.videos.create')
  async createVideo(request: RouteRequest) {
    return this.relay.create(request, await readVideoCreateBody(request, this.limits));
  }

  @RouteHandler('oaic.videos.content')
  videoContent(request: RouteRequest) {
    return this.relay.content(request, request.params.video_id ?? '');
  }
}
