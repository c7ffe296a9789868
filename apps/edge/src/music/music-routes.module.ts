import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { registerMusicCallbackRoute } from './music-callback.routes';
import { MusicRelayService } from './music-relay.service';
import { MusicRoutes } from './music.routes';

/** The music family at the edge: its 22 routes relayed to the music service, and the upstream callback intake. */
@Module({ providers: [MusicRelayService, MusicRoutes] })
export class MusicRoutesModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly relay: MusicRelayService,
    @Inject(EDGE_ENV) private readonly env: EdgeEnv,
  ) {}

  onModuleInit(): void {
    registerMusicCallbackRoute(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), this.relay, this.env.MUSIC_CALLBACK_MAX_BYTES);
  }
}
