import { RpcHandler } from '@gateway/platform';
import { CachePurgeMessage, parseOrThrow, RPCS } from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CacheIndexFollower } from './cache-index-follower';
import { ResponseCacheStore } from './response-cache.store';

@Controller()
export class ResponseCacheHandler {
  constructor(
    @Inject(ResponseCacheStore) private readonly store: ResponseCacheStore,
    @Inject(CacheIndexFollower) private readonly follower: CacheIndexFollower,
  ) {}

  /** `gatewayctl cache purge`: every cached answer of the tenant. */
  @RpcHandler(RPCS.chat.cache.purge)
  async purge(@Payload() payload: unknown): Promise<{ purged: number }> {
    const { tenantId } = parseOrThrow(CachePurgeMessage, payload);
    const purged = await this.store.purge(tenantId);
    this.follower.purged(tenantId);
    return { purged };
  }
}
