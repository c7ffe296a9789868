import { claimCheckKey, type BodyRef, type TenantCaller } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { OAIC_ENV, OAIC_REDIS, type OaicEnv } from '../oaic/oaic-env';

/**
 * Parks request bodies too large for one NATS message in Redis and hands back the reference the chat
 * service redeems (claim check). Keys carry the NATS prefix so deployments sharing a Redis never meet,
 * and the tenant and the server's request id, so no client can name another request's body.
 */
@Injectable()
export class ClaimCheckStore {
  constructor(
    @Inject(OAIC_REDIS) private readonly redis: Redis,
    @Inject(OAIC_ENV) private readonly env: OaicEnv,
    private readonly bus: NatsBus,
  ) {}

  async park(caller: Pick<TenantCaller, 'tenantId' | 'requestId'>, json: string): Promise<BodyRef> {
    const key = claimCheckKey(this.bus.prefix, caller.tenantId, caller.requestId);
    await this.redis.set(key, json, 'EX', this.env.CLAIM_CHECK_TTL_SECONDS);
    return { store: 'redis', key, bytes: Buffer.byteLength(json) };
  }
}
