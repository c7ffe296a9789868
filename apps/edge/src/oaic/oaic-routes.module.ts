import { loadEnv } from '@gateway/platform';
import { createObjectStore, StorageEnv } from '@gateway/storage';
import multipart from '@fastify/multipart';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { MEDIA_EDGE_ENV, MediaEdgeEnv } from '../media/media-env';
import { AudioStorageRelayService, MAX_AUDIO_UPLOAD_BYTES } from './audio-storage-relay.service';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { multipartLimitsOf, parserLimits } from '../routing/multipart-form';
import { OaicImagesService } from './oaic-images.service';
import { RelayModule } from '../relay/relay.module';
import { OAIC_ENV, OAIC_OBJECT_STORE, OaicEnv } from './oaic-env';
import { OaicRoutes } from './oaic.routes';

/**
 * The oaic routes that do work at the edge: images read back from storage and audio object traffic
 * (the family's relayed routes are served from the route table).
 */
@Module({
  imports: [RelayModule],
  providers: [
    { provide: OAIC_ENV, useFactory: () => loadEnv(OaicEnv) },
    { provide: OAIC_OBJECT_STORE, useFactory: () => createObjectStore(loadEnv(StorageEnv)) },
    // PUBLIC_BASE_URL, for the signed links of images a native-media model made.
    { provide: MEDIA_EDGE_ENV, useFactory: () => loadEnv(MediaEdgeEnv) },
    AudioStorageRelayService,
    OaicImagesService,
    OaicRoutes,
  ],
})
export class OaicRoutesModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(EDGE_ENV) private readonly edgeEnv: EdgeEnv,
  ) {}

  /** Audio uploads arrive as multipart/form-data; files stream to storage, never buffered whole. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Every route's reader passes its own limits; these are the fallback of any other.
    void fastify.register(multipart, { limits: parserLimits(multipartLimitsOf(this.edgeEnv), { fileSize: MAX_AUDIO_UPLOAD_BYTES, files: 1 }) });
  }
}
