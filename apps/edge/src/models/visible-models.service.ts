import { SUBJECTS, VisibleModelsReply, type ModelRecord, type VisibleModel } from '@gateway/contracts';
import { NatsBus, ReadThroughCache } from '@gateway/platform';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { followInvalidations } from '../cache/invalidation-feed';
import type { EdgeEnv } from '../config/edge-env';
import { EDGE_ENV } from '../config/edge-env.token';
import { orderModels, paginateModels, toModelRecord } from './model-pagination';

/** A tenant's visible models, ordered, with derived forms built once per fetch. */
export class TenantModels {
  readonly records: ModelRecord[];
  private fullListJson: string | undefined;

  constructor(readonly models: VisibleModel[]) {
    this.records = models.map(toModelRecord);
  }

  /** The unpaged list as JSON, serialized once: the hot path of the openai SDK's models.list(). */
  get allJson(): string {
    this.fullListJson ??= JSON.stringify(paginateModels(this.records, {}, this.records.length));
    return this.fullListJson;
  }
}

/**
 * Per-tenant cache of the models a tenant may see, fetched from accounts once however many requests
 * wait, and dropped on invalidation broadcasts (per tenant, or all of them when the catalog changed).
 */
@Injectable()
export class VisibleModelsService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: ReadThroughCache<TenantModels>;
  private stopFeed: () => void = () => undefined;

  constructor(
    private readonly bus: NatsBus,
    @Inject(EDGE_ENV) env: EdgeEnv,
  ) {
    this.cache = new ReadThroughCache({
      load: (tenantId) => this.lookUp(tenantId),
      ttlMs: env.KEY_CACHE_TTL_SECONDS * 1000,
      // Tenants are named by authenticated keys only, so they are no more than the keys held.
      maxEntries: env.KEY_CACHE_MAX_ENTRIES,
    });
  }

  onModuleInit(): void {
    this.stopFeed = followInvalidations(this.bus, (event) => {
      if (event === 'all' || event.catalog) return this.cache.clear();
      this.cache.drop(event.tenantIds);
    });
  }

  onModuleDestroy(): void {
    this.stopFeed();
  }

  forTenant(tenantId: string): Promise<TenantModels> | TenantModels {
    return this.cache.get(tenantId);
  }

  private async lookUp(tenantId: string): Promise<TenantModels> {
    const models = await this.bus.request(SUBJECTS.accounts.models.visible, { tenantId }, VisibleModelsReply, { timeoutMs: 5000, idempotent: true });
    return new TenantModels(orderModels(models));
  }
}
