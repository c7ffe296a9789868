import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { registerMusicCallbackRoute } from './music-callback.routes';
import { MusicRelayService } from './music-relay.service';

/** The music family's upstream callback intake (its 22 routes are relayed from the route table). */
@Module({ providers: [MusicRelayService] })
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
