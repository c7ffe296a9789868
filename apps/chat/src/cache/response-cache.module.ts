// The response cache: answers kept per tenant in Redis, their lookup and storage for the pipeline, and their purge.
import { NatsBus } from '@gateway/platform';
import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import { CacheIndexFollower } from './cache-index-follower';
import { LocalCacheIndex } from './local-cache-index';
import { ResponseCacheHandler } from './response-cache.handler';
import { ResponseCacheService } from './response-cache.service';
import { ResponseCacheStore } from './response-cache.store';

@Module({
  controllers: [ResponseCacheHandler],
  providers: [
    {
      provide: ResponseCacheStore,
      inject: [Redis, NatsBus, CHAT_ENV],
      useFactory: (redis: Redis, bus: NatsBus, env: ChatEnv) =>
        new ResponseCacheStore(redis, ResponseCacheStore.namespaceOf(bus.prefix), {
          tenantMaxBytes: env.CACHE_TENANT_MAX_BYTES,
          entryMaxBytes: env.CACHE_ENTRY_MAX_BYTES,
        }),
    },
    {
      provide: CacheIndexFollower,
      inject: [NatsBus, ResponseCacheStore, CHAT_ENV],
      useFactory: (bus: NatsBus, store: ResponseCacheStore, env: ChatEnv) => {
        const follower = new CacheIndexFollower(
          bus,
          store,
          new LocalCacheIndex({ maxEntries: env.CACHE_INDEX_MAX_ENTRIES, maxValueBytes: env.CACHE_LOCAL_MAX_BYTES }),
        );
        void follower.follow();
        return follower;
      },
    },
    ResponseCacheService,
  ],
  exports: [ResponseCacheStore, ResponseCacheService],
})
export class ResponseCacheModule implements OnModuleDestroy {
  constructor(@Inject(CacheIndexFollower) private readonly follower: CacheIndexFollower) {}

  onModuleDestroy(): void {
    this.follower.close();
  }
}
