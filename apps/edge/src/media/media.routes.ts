import { Inject, Injectable } from '@nestjs/common';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { multipartLimitsOf, type MultipartLimits } from '../routing/multipart-form';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { MediaRelayService } from './media-relay.service';
import { readVideoCreateBody } from './video-create.body';

const taskIdOf = (request: RouteRequest) => request.params.task_id ?? '';

/** The media routes of oaic videos, dsc and nativemedia: each hands its parsed request to the media service. */
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

  @RouteHandler('oaic.videos.get')
  getVideo(request: RouteRequest) {
    return this.relay.get(request, request.params.video_id ?? '');
  }

  @RouteHandler('oaic.videos.content')
  videoContent(request: RouteRequest) {
    return this.relay.content(request, request.params.video_id ?? '');
  }

  @RouteHandler('dsc.image')
  dscImage(request: RouteRequest) {
    return this.relay.create(request);
  }

  @RouteHandler('dsc.video')
  dscVideo(request: RouteRequest) {
    return this.relay.create(request);
  }

  @RouteHandler('dsc.tasks.get')
  dscTask(request: RouteRequest) {
    return this.relay.get(request, taskIdOf(request));
  }

  @RouteHandler('nativemedia.videos.text2video.create')
  text2video(request: RouteRequest) {
    return this.relay.create(request);
  }

  @RouteHandler('nativemedia.videos.text2video.get')
  text2videoTask(request: RouteRequest) {
    return this.relay.get(request, taskIdOf(request));
  }

  @RouteHandler('nativemedia.videos.image2video.create')
  image2video(request: RouteRequest) {
    return this.relay.create(request);
  }

  @RouteHandler('nativemedia.videos.image2video.get')
  image2videoTask(request: RouteRequest) {
    return this.relay.get(request, taskIdOf(request));
  }

  @RouteHandler('nativemedia.videos.omni-video.create')
  omniVideo(request: RouteRequest) {
    return this.relay.create(request);
  }

  @RouteHandler('nativemedia.videos.omni-video.get')
  omniVideoTask(request: RouteRequest) {
    return this.relay.get(request, taskIdOf(request));
  }

  @RouteHandler('nativemedia.images.generations.create')
  imageGenerations(request: RouteRequest) {
    return this.relay.create(request);
  }

  @RouteHandler('nativemedia.images.generations.get')
  imageGenerationsTask(request: RouteRequest) {
    return this.relay.get(request, taskIdOf(request));
  }

  @RouteHandler('nativemedia.images.omni-image.create')
  omniImage(request: RouteRequest) {
    return this.relay.create(request);
  }

  @RouteHandler('nativemedia.images.omni-image.get')
  omniImageTask(request: RouteRequest) {
    return this.relay.get(request, taskIdOf(request));
  }
}
