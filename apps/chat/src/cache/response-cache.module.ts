// The response cache: answers kept per tenant in Redis, their lookup and storage for the pipeline, and their purge.
import { NatsBus } from '@gateway/platform';
import { Module } from '@nestjs/common';
import Redis from 'ioredis';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
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
    ResponseCacheService,
  ],
  exports: [ResponseCacheStore, ResponseCacheService],
})
export class ResponseCacheModule {}
