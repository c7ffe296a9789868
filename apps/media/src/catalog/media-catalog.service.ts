import { CatalogChannelsReply, GatewayError, InvalidationEvent, SUBJECTS, VisibleModelsReply, type Capability, type VisibleModel } from '@gateway/contracts';
import { NatsBus, ReadThroughCache } from '@gateway/platform';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'nats';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';

const MAX_ENTRIES = 10_000;

/**
 * Which models a tenant may use and the channels of each, asked of accounts once and served from memory
 * until an invalidation broadcast (or the TTL) drops it.
 */
@Injectable()
export class MediaCatalogService implements OnModuleDestroy {
  private readonly routes: ReadThroughCache<CatalogChannelsReply>;
  private readonly visible: ReadThroughCache<Map<string, VisibleModel>>;
  private readonly subscription: Subscription;

  constructor(
    private readonly bus: NatsBus,
    @Inject(MEDIA_ENV) env: MediaEnv,
  ) {
    const ttlMs = env.CATALOG_TTL_SECONDS * 1000;
    this.routes = new ReadThroughCache({
      load: (modelId) => this.bus.request(SUBJECTS.accounts.catalog.channels, { modelId }, CatalogChannelsReply),
      ttlMs,
      maxEntries: MAX_ENTRIES,
    });
    this.visible = new ReadThroughCache({
      load: async (tenantId) => new Map((await this.bus.request(SUBJECTS.accounts.models.visible, { tenantId }, VisibleModelsReply)).map((m) => [m.id, m])),
      ttlMs,
      maxEntries: MAX_ENTRIES,
    });
    this.subscription = this.bus.subscribe(SUBJECTS.accounts.invalidated, (payload) => {
      const event = InvalidationEvent.safeParse(payload);
      if (!event.success) return;
      if (event.data.catalog) {
        this.routes.clear();
        this.visible.clear();
      } else {
        this.visible.drop(event.data.tenantIds);
      }
    });
  }

  onModuleDestroy(): void {
    this.subscription.unsubscribe();
  }

  /** The model's catalog entry and channels, once the tenant is known to see it; otherwise model_not_found (404). */
  async route(tenantId: string, modelId: string, capability: Capability, param: string): Promise<CatalogChannelsReply> {
    const model = (await this.visible.get(tenantId)).get(modelId);
    if (!model) throw new GatewayError('model_not_found', `The model '${modelId}' does not exist or you do not have access to it.`, param);
    if (model.capability !== capability) {
      throw GatewayError.invalid(`The model '${modelId}' is a ${model.capability} model and cannot serve this route (needs ${capability}).`, param);
    }
    const route = await this.routes.get(modelId);
    if (route.channels.length === 0) throw new GatewayError('unavailable', `The model '${modelId}' has no upstream channel configured.`);
    return route;
  }

  /** The model's channels for a worker (no tenant check: the task was authorized when it was created). */
  channels(modelId: string): Promise<CatalogChannelsReply> {
    return Promise.resolve(this.routes.get(modelId));
  }
}
