import { CatalogChannelsReply, GatewayError, SUBJECTS, VisibleModelsReply, type InvalidationEvent, type VisibleModel } from '@gateway/contracts';
import { NatsBus, ReadThroughCache } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { MUSIC_ENV, type MusicEnv } from '../config/music-env';

const MAX_ENTRIES = 10_000;

/** Which music models a tenant may use and their channels, asked of accounts once and cached until an invalidation. */
@Injectable()
export class MusicCatalogService {
  private readonly routes: ReadThroughCache<CatalogChannelsReply>;
  private readonly visible: ReadThroughCache<Map<string, VisibleModel>>;

  constructor(
    private readonly bus: NatsBus,
    @Inject(MUSIC_ENV) env: MusicEnv,
  ) {
    const ttlMs = env.CATALOG_TTL_SECONDS * 1000;
    this.routes = new ReadThroughCache({
      load: (modelId) => bus.request(SUBJECTS.accounts.catalog.channels, { modelId }, CatalogChannelsReply),
      ttlMs,
      maxEntries: MAX_ENTRIES,
    });
    this.visible = new ReadThroughCache({
      load: async (tenantId) => new Map((await bus.request(SUBJECTS.accounts.models.visible, { tenantId }, VisibleModelsReply)).map((m) => [m.id, m])),
      ttlMs,
      maxEntries: MAX_ENTRIES,
    });
  }

  /** The model's channels once the tenant is known to see it as a music model; `model` is the field at fault otherwise. */
  async route(tenantId: string, modelId: string): Promise<CatalogChannelsReply> {
    const model = (await this.visible.get(tenantId)).get(modelId);
    if (!model)
      throw new GatewayError(
        'model_not_found',
        `Invalid value for 'model': the music model '${modelId}' does not exist or you do not have access to it.`,
        'model',
      );
    if (model.capability !== 'music')
      throw GatewayError.invalid(`Invalid value for 'model': '${modelId}' is a ${model.capability} model, not a music model.`, 'model');
    const route = await this.routes.get(modelId);
    if (route.channels.length === 0) throw new GatewayError('unavailable', `The model '${modelId}' has no upstream channel configured.`);
    return route;
  }

  /** A task's own channel, for the poller (the tenant was checked when the task was created). */
  async channel(modelId: string, channelId: string): Promise<CatalogChannelsReply['channels'][number]> {
    const channel = (await this.routes.get(modelId)).channels.find((c) => c.id === channelId);
    if (!channel) throw new GatewayError('unavailable', `The channel ${channelId} of model '${modelId}' is no longer configured.`);
    return channel;
  }

  /** The tenant's first music model, for routes that name none and no source task. */
  async defaultModel(tenantId: string): Promise<string> {
    for (const model of (await this.visible.get(tenantId)).values()) if (model.capability === 'music') return model.id;
    throw new GatewayError('model_not_found', "Missing required parameter: 'model' (no music model is available to this key).", 'model');
  }

  invalidate(event: InvalidationEvent): void {
    if (event.catalog) {
      this.routes.clear();
      this.visible.clear();
      return;
    }
    this.visible.drop(event.tenantIds);
  }
}
