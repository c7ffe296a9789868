import { CACHE_MAX_TTL_SECONDS, CacheSettings, effectiveCache, GatewayError, type CacheSetReply, type CacheSetRequest } from '@gateway/contracts';
import { Prisma } from '@gateway/db';
import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { InvalidationPublisher } from '../events/invalidation.publisher';
import { CacheSettingsRepository } from './cache-settings.repository';
import { storedCache } from './key-cache';

/** A key's fields left unset narrow nothing: they take the widest value and its tenant's decides. */
const KEY_DEFAULTS = { ttlSeconds: CACHE_MAX_TTL_SECONDS, sampled: true };

/** What a set asks for, over what was stored: fields it leaves out keep their stored (or default) value. */
function merged(stored: CacheSettings | null, request: CacheSetRequest, defaults: Partial<CacheSettings> = {}): CacheSettings | null {
  if (request.mode === null) return null;
  const base = { ...defaults, ...stored };
  return CacheSettings.parse({ mode: request.mode, ttlSeconds: request.ttlSeconds ?? base.ttlSeconds, sampled: request.sampled ?? base.sampled });
}

/**
 * A tenant's response cache, and one key's narrowing of it. A change drops the tenant's keys from every
 * edge's cache, so it applies at their next request.
 */
@Injectable()
export class CacheSettingsService {
  constructor(
    @Inject(CacheSettingsRepository) private readonly settings: CacheSettingsRepository,
    @Inject(InvalidationPublisher) private readonly invalidation: InvalidationPublisher,
  ) {}

  async set(request: CacheSetRequest): Promise<CacheSetReply> {
    const tenant = await this.settings.tenant(request.tenant);
    if (!tenant) throw GatewayError.notFound(`tenant "${request.tenant}" does not exist`, 'tenant');
    let tenantSettings = storedCache(tenant.cache);
    if (request.key === undefined) {
      tenantSettings = merged(tenantSettings, request);
      await this.settings.setTenant(tenant.id, tenantSettings ?? Prisma.DbNull);
      this.invalidation.publish({ tenantIds: [tenant.id] });
      const settings = tenantSettings ?? CacheSettings.parse({});
      return { tenant: tenant.slug, tenantSettings: settings, effective: settings };
    }
    const key = z.uuid().safeParse(request.key).success ? await this.settings.key(tenant.id, request.key) : null;
    if (!key) throw GatewayError.notFound(`key "${request.key}" of tenant "${tenant.slug}" does not exist`, 'key');
    const keySettings = merged(storedCache(key.cache), request, KEY_DEFAULTS);
    await this.settings.setKey(key.id, keySettings ?? Prisma.DbNull);
    this.invalidation.publish({ keyHashes: [key.hash] });
    return {
      tenant: tenant.slug,
      key: key.id,
      tenantSettings: tenantSettings ?? CacheSettings.parse({}),
      keySettings,
      effective: effectiveCache(tenantSettings, keySettings),
    };
  }
}
