import {
  CatalogChannelsReply,
  GatewayError,
  SUBJECTS,
  VisibleModelsReply,
  type Capability,
  type InvalidationEvent,
  type VisibleModel,
} from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';

interface Cached<T> {
  value: Promise<T>;
  expiresAt: number;
}

export type ModelRoute = CatalogChannelsReply;

/**
 * Which models a tenant may use and how each model reaches its upstreams, asked of accounts once and
 * then served from memory until an invalidation broadcast (or the TTL) drops it.
 */
@Injectable()
export class CatalogService {
  private readonly routes = new Map<string, Cached<ModelRoute>>();
  private readonly visible = new Map<string, Cached<Map<string, VisibleModel>>>();
  private readonly ttlMs: number;

  constructor(
    private readonly bus: NatsBus,
    @Inject(CHAT_ENV) env: ChatEnv,
  ) {
    this.ttlMs = env.CATALOG_TTL_SECONDS * 1000;
  }

  /** The model's channels, once the tenant is known to see it; otherwise model_not_found (404). */
  async route(tenantId: string, modelId: string, capability: Capability): Promise<ModelRoute> {
    const models = await this.visibleModels(tenantId);
    const model = models.get(modelId);
    if (!model) throw new GatewayError('model_not_found', `The model '${modelId}' does not exist or you do not have access to it.`, 'model');
    if (model.capability !== capability) {
      throw GatewayError.invalid(`The model '${modelId}' is a ${model.capability} model and cannot serve this route (needs ${capability}).`, 'model');
    }
    const route = await this.cached(this.routes, modelId, () =>
      this.bus.request(SUBJECTS.accounts.catalog.channels, { modelId }, CatalogChannelsReply),
    );
    if (route.channels.length === 0) throw new GatewayError('unavailable', `The model '${modelId}' has no upstream channel configured.`);
    return route;
  }

  /** The first model of this capability the tenant may use (moderations may omit `model`). */
  async defaultModel(tenantId: string, capability: Capability): Promise<string> {
    for (const model of (await this.visibleModels(tenantId)).values()) if (model.capability === capability) return model.id;
    throw new GatewayError('model_not_found', `No ${capability} model is available to this key.`, 'model');
  }

  invalidate(event: InvalidationEvent): void {
    if (event.catalog) {
      this.routes.clear();
      this.visible.clear();
      return;
    }
    for (const tenantId of event.tenantIds) this.visible.delete(tenantId);
  }

  private visibleModels(tenantId: string): Promise<Map<string, VisibleModel>> {
    return this.cached(this.visible, tenantId, async () => {
      const models = await this.bus.request(SUBJECTS.accounts.models.visible, { tenantId }, VisibleModelsReply);
      return new Map(models.map((m) => [m.id, m]));
    });
  }

  /** One lookup per key even under a burst of concurrent misses; failures are not cached. */
  private cached<T>(cache: Map<string, Cached<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const hit = cache.get(key);
    if (hit && hit.expiresAt > Date.now()) return hit.value;
    const value = load();
    cache.set(key, { value, expiresAt: Date.now() + this.ttlMs });
    value.catch(() => {
      if (cache.get(key)?.value === value) cache.delete(key);
    });
    return value;
  }
}
