import { GatewayError, RateLimits, TenantLimitsConfig, type ConsoleKeyLimits } from '@gateway/contracts';
import { Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { KeysRepository } from './keys.repository';

const nonEmpty = (limits: RateLimits | null | undefined): RateLimits | null => (limits && Object.keys(limits).length > 0 ? limits : null);

/**
 * A key's own rate limits (rpm, tpm, concurrency), the ones the edge enforces beside its tenant's: shown
 * with the tenant's default for each key, and set by the tenant console. A change drops the key from
 * every edge's cache, so it applies at the next request.
 */
@Injectable()
export class KeyLimitsService {
  constructor(
    @Inject(KeysRepository) private readonly keys: KeysRepository,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
  ) {}

  async show(tenantSlug: string, id: string): Promise<ConsoleKeyLimits> {
    const key = await this.require(tenantSlug, id);
    const own = RateLimits.safeParse(key.limits ?? undefined);
    const tenant = TenantLimitsConfig.safeParse(key.tenant.limits ?? undefined);
    const { perKey, ...tenantWide } = tenant.success ? tenant.data : { perKey: undefined };
    const ownLimits = nonEmpty(own.success ? own.data : null);
    const tenantDefault = nonEmpty(perKey);
    return { id: key.id, own: ownLimits, tenantDefault, effective: ownLimits ?? tenantDefault, tenant: nonEmpty(tenantWide) };
  }

  async set(tenantSlug: string, id: string, limits: RateLimits | null): Promise<ConsoleKeyLimits> {
    const key = await this.require(tenantSlug, id);
    const own = nonEmpty(limits);
    await this.keys.setLimits(key.id, own === null ? Prisma.DbNull : own);
    this.invalidation.publish({ keyHashes: [key.hash] });
    return this.show(tenantSlug, id);
  }

  private async require(tenantSlug: string, id: string) {
    const key = z.uuid().safeParse(id).success ? await this.keys.findWithLimits(id) : null;
    if (!key || key.tenant.slug !== tenantSlug) throw GatewayError.notFound(`key "${id}" does not exist`, 'id');
    return key;
  }
}
