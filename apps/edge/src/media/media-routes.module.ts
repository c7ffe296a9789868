// The media families at the edge: oaic videos, dsc and nativemedia, relayed to the media service; owns
// the stream of a completed video out of storage, and the intake of vendor task-end callbacks.
import { loadEnv } from '@gateway/platform';
import { CallbackTokenSigner, createObjectStore, StorageEnv } from '@gateway/storage';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { registerMediaCallbackRoute } from './media-callback.routes';
import { MEDIA_EDGE_ENV, MEDIA_OBJECT_STORE, MediaEdgeEnv } from './media-env';
import { MediaRoutes } from './media.routes';
import { MediaRelayService } from './media-relay.service';

@Module({
  providers: [
    { provide: MEDIA_EDGE_ENV, useFactory: () => loadEnv(MediaEdgeEnv) },
    { provide: MEDIA_OBJECT_STORE, useFactory: () => createObjectStore(loadEnv(StorageEnv)) },
    MediaRelayService,
    MediaRoutes,
  ],
})
export class MediaRoutesModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly relay: MediaRelayService,
    @Inject(MEDIA_EDGE_ENV) private readonly env: MediaEdgeEnv,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    registerMediaCallbackRoute(fastify, this.relay, CallbackTokenSigner.fromEnv(), this.env.MEDIA_CALLBACK_MAX_BYTES);
  }
}
