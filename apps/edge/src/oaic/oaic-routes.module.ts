import { loadEnv, NatsBus, RedisReplyStore } from '@gateway/platform';
import { createObjectStore, StorageEnv } from '@gateway/storage';
import multipart from '@fastify/multipart';
import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import { ClaimCheckStore } from './claim-check.store';
import { MEDIA_EDGE_ENV, MediaEdgeEnv } from '../media/media-env';
import { AudioStorageRelayService, MAX_AUDIO_UPLOAD_BYTES } from './audio-storage-relay.service';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { multipartLimitsOf, parserLimits } from '../routing/multipart-form';
import { OaicImagesService } from './oaic-images.service';
import { OAIC_ENV, OAIC_OBJECT_STORE, OAIC_REDIS, OaicEnv } from './oaic-env';
import { OaicRoutes } from './oaic.routes';
import { OaicRelayService } from './oaic-relay.service';

/**
 * The oaic family at the edge: chat, completions, responses, embeddings, moderations, images and
 * audio routes, relayed to the chat service; owns the claim-check store and audio object traffic.
 */
@Module({
  providers: [
    { provide: OAIC_ENV, useFactory: () => loadEnv(OaicEnv) },
    { provide: OAIC_OBJECT_STORE, useFactory: () => createObjectStore(loadEnv(StorageEnv)) },
    // PUBLIC_BASE_URL, for the signed links of images a native-media model made.
    { provide: MEDIA_EDGE_ENV, useFactory: () => loadEnv(MediaEdgeEnv) },
    {
      provide: OAIC_REDIS,
      inject: [OAIC_ENV],
      useFactory: (env: OaicEnv) => new Redis(env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2, enableAutoPipelining: true }),
    },
    ClaimCheckStore,
    OaicRelayService,
    AudioStorageRelayService,
    OaicImagesService,
    OaicRoutes,
  ],
  exports: [OaicRelayService],
})
export class OaicRoutesModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(OAIC_REDIS) private readonly redis: Redis,
    private readonly adapterHost: HttpAdapterHost,
    private readonly bus: NatsBus,
    @Inject(EDGE_ENV) private readonly edgeEnv: EdgeEnv,
  ) {}

  /**
   * Audio uploads arrive as multipart/form-data; files stream to storage, never buffered whole. Replies
   * too large for one NATS message (a long response) are redeemed from the same Redis as request claim checks.
   */
  onModuleInit(): void {
    this.bus.replyClaims.use(new RedisReplyStore(this.redis));
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Every route's reader passes its own limits; these are the fallback of any other.
    void fastify.register(multipart, { limits: parserLimits(multipartLimitsOf(this.edgeEnv), { fileSize: MAX_AUDIO_UPLOAD_BYTES, files: 1 }) });
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
