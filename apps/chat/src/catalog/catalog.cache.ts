import {
  CatalogChannelsReply,
  GatewayError,
  SUBJECTS,
  VisibleModelsReply,
  type Capability,
  type InvalidationEvent,
  type VisibleModel,
} from '@gateway/contracts';
import { NatsBus, onReconnect, ReadThroughCache } from '@gateway/platform';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';

/** Tenants seen and models routed; both are named only after authentication, by keys and the catalog. */
const MAX_ENTRIES = 10_000;

export type ModelRoute = CatalogChannelsReply;

/**
 * Which models a tenant may use and how each model reaches its upstreams, asked of accounts once and
 * then served from memory until an invalidation broadcast, a reconnection or the TTL drops it.
 */
@Injectable()
export class CatalogCache implements OnModuleInit, OnModuleDestroy {
  private readonly routes: ReadThroughCache<ModelRoute>;
  private readonly visible: ReadThroughCache<Map<string, VisibleModel>>;
  private stopWatching: () => void = () => undefined;

  constructor(
    private readonly bus: NatsBus,
    @Inject(CHAT_ENV) env: ChatEnv,
  ) {
    const ttlMs = env.CATALOG_TTL_SECONDS * 1000;
    this.routes = new ReadThroughCache({
      load: (modelId) => this.bus.request(SUBJECTS.accounts.catalog.channels, { modelId }, CatalogChannelsReply),
      ttlMs,
      maxEntries: MAX_ENTRIES,
    });
    this.visible = new ReadThroughCache({
      load: async (tenantId) => {
        const models = await this.bus.request(SUBJECTS.accounts.models.visible, { tenantId }, VisibleModelsReply);
        return new Map(models.map((m) => [m.id, m]));
      },
      ttlMs,
      maxEntries: MAX_ENTRIES,
    });
  }

  /** The model's channels, once the tenant is known to see it; otherwise model_not_found (404). */
  async route(tenantId: string, modelId: string, capability: Capability): Promise<ModelRoute> {
    const models = await this.visible.get(tenantId);
    const model = models.get(modelId);
    if (!model) throw new GatewayError('model_not_found', `The model '${modelId}' does not exist or you do not have access to it.`, 'model');
    if (model.capability !== capability) {
      throw GatewayError.invalid(`The model '${modelId}' is a ${model.capability} model and cannot serve this route (needs ${capability}).`, 'model');
    }
    const route = await this.routes.get(modelId);
    if (route.channels.length === 0) throw new GatewayError('unavailable', `The model '${modelId}' has no upstream channel configured.`);
    return route;
  }

  /** The model's channels whoever asks: for objects a tenant already owns on one of them (assistants, threads). */
  async channels(modelId: string): Promise<ModelRoute> {
    return this.routes.get(modelId);
  }

  /** The ids of the models of this capability the tenant may use, in the catalog's order. */
  async modelIds(tenantId: string, capability: Capability): Promise<string[]> {
    return [...(await this.visible.get(tenantId)).values()].filter((model) => model.capability === capability).map((model) => model.id);
  }

  /** The first model of this capability the tenant may use (moderations may omit `model`). */
  async defaultModel(tenantId: string, capability: Capability): Promise<string> {
    for (const model of (await this.visible.get(tenantId)).values()) if (model.capability === capability) return model.id;
    throw new GatewayError('model_not_found', `No ${capability} model is available to this key.`, 'model');
  }

  onModuleInit(): void {
    // Invalidations broadcast while the connection was down are lost: nothing cached before may be trusted.
    this.stopWatching = onReconnect(this.bus.connection, () => this.invalidate('all'));
  }

  onModuleDestroy(): void {
    this.stopWatching();
  }

  invalidate(event: InvalidationEvent | 'all'): void {
    if (event === 'all' || event.catalog) {
      this.routes.clear();
      this.visible.clear();
      return;
    }
    this.visible.drop(event.tenantIds);
  }
}
