import { loadEnv } from '@gateway/platform';
import { createObjectStore, StorageEnv } from '@gateway/storage';
import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { ClaimCheckStore } from './claim-check.store';
import { OaicAudioService } from './oaic-audio.service';
import { OAIC_ENV, OAIC_OBJECT_STORE, OAIC_REDIS, OaicEnv } from './oaic-env';
import { OaicHandler } from './oaic.handler';
import { OaicRelayService } from './oaic-relay.service';

/**
 * The oaic family at the edge: chat, completions, responses, embeddings, moderations, images and
 * audio routes, relayed to the chat service; owns the claim-check store and audio object traffic.
 */
@Module({
  providers: [
    { provide: OAIC_ENV, useFactory: () => loadEnv(OaicEnv) },
    { provide: OAIC_OBJECT_STORE, useFactory: () => createObjectStore(loadEnv(StorageEnv)) },
    { provide: OAIC_REDIS, inject: [OAIC_ENV], useFactory: (env: OaicEnv) => new Redis(env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 }) },
    ClaimCheckStore,
    OaicRelayService,
    OaicAudioService,
    OaicHandler,
  ],
})
export class OaicModule implements OnApplicationShutdown {
  constructor(@Inject(OAIC_REDIS) private readonly redis: Redis) {}

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
