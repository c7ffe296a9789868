import { loadEnv, NatsBus, RedisReplyStore, createRedis } from '@gateway/platform';
import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { EDGE_FILES_ENV, EdgeFilesEnv } from '../files/files-env';
import { MEDIA_EDGE_ENV, MediaEdgeEnv } from '../media/media-env';
import { OAIC_ENV, OAIC_REDIS, OaicEnv } from '../oaic/oaic-env';
import { ChatRelay } from './chat-relay.service';
import { ClaimCheckStore } from './claim-check.store';
import { RelayShapes } from './relay-shapes';
import { TableRelay } from './table-relay.service';

/**
 * The edge's relays to the services: the table relay that serves every pure relay route of the route
 * table, and the chat relay (with its claim-check store) that handlers doing real work share.
 */
@Module({
  providers: [
    { provide: OAIC_ENV, useFactory: () => loadEnv(OaicEnv) },
    { provide: MEDIA_EDGE_ENV, useFactory: () => loadEnv(MediaEdgeEnv) },
    { provide: EDGE_FILES_ENV, useFactory: () => loadEnv(EdgeFilesEnv) },
    {
      provide: OAIC_REDIS,
      inject: [OAIC_ENV],
      useFactory: (env: OaicEnv) => createRedis(env, 'relay', { lazyConnect: true, enableAutoPipelining: true }),
    },
    ClaimCheckStore,
    ChatRelay,
    RelayShapes,
    TableRelay,
  ],
  exports: [ChatRelay, TableRelay],
})
export class RelayModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(OAIC_REDIS) private readonly redis: Redis,
    private readonly bus: NatsBus,
  ) {}

  /** Replies too large for one NATS message (a long response) are redeemed from the same Redis as request claim checks. */
  onModuleInit(): void {
    this.bus.replyClaims.use(new RedisReplyStore(this.redis));
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
