import { SUBJECTS, VisibleModelsReply, type ModelRecord, type VisibleModel } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
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

interface Entry {
  value: TenantModels;
  cachedUntil: number;
}

/**
 * Per-tenant cache of the models a tenant may see, fetched from accounts once however many requests
 * wait, and dropped on invalidation broadcasts (per tenant, or all of them when the catalog changed).
 */
@Injectable()
export class VisibleModelsService implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<TenantModels>>();
  private readonly ttlMs: number;
  private generation = 0;
  private stopFeed: () => void = () => undefined;

  constructor(
    private readonly bus: NatsBus,
    @Inject(EDGE_ENV) env: EdgeEnv,
  ) {
    this.ttlMs = env.KEY_CACHE_TTL_SECONDS * 1000;
  }

  onModuleInit(): void {
    this.stopFeed = followInvalidations(this.bus, (event) => {
      this.generation++;
      if (event === 'all' || event.catalog) return this.entries.clear();
      for (const tenantId of event.tenantIds) this.entries.delete(tenantId);
    });
  }

  onModuleDestroy(): void {
    this.stopFeed();
  }

  forTenant(tenantId: string): Promise<TenantModels> | TenantModels {
    const entry = this.entries.get(tenantId);
    if (entry && Date.now() < entry.cachedUntil) return entry.value;
    const pending = this.inFlight.get(tenantId);
    if (pending) return pending;
    const generation = this.generation;
    const request = this.bus
      .request(SUBJECTS.accounts.models.visible, { tenantId }, VisibleModelsReply, { timeoutMs: 5000 })
      .then((models) => {
        const value = new TenantModels(orderModels(models));
        if (generation === this.generation) this.entries.set(tenantId, { value, cachedUntil: Date.now() + this.ttlMs });
        return value;
      })
      .finally(() => this.inFlight.delete(tenantId));
    this.inFlight.set(tenantId, request);
    return request;
  }
}
