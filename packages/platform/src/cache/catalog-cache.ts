import {
  CatalogChannelsReply,
  GatewayError,
  InvalidationEvent,
  modelRefusal,
  SUBJECTS,
  VisibleModelsReply,
  type Capability,
  type ModelRules,
  type VisibleModel,
} from '@gateway/contracts';
import type { NatsBus } from '../nats/nats-bus';
import { onReconnect } from '../nats/reconnects';
import { ReadThroughCache } from './read-through-cache';

/** Tenants seen and models routed; both are named only after authentication, by keys and the catalog. */
const MAX_ENTRIES = 10_000;

/** Who asks for a route: the key's tenant, and the model lists of the key and its project when they have any. */
export interface RouteCaller extends ModelRules {
  tenantId: string;
}

/** How a refused model is worded on a family's route: the field at fault and the two messages. */
export interface ModelFaultWording {
  param: string;
  notFound(modelId: string): string;
  wrongCapability(modelId: string, capability: Capability, needs: Capability): string;
}

const PLAIN_WORDING: ModelFaultWording = {
  param: 'model',
  notFound: (modelId) => `The model '${modelId}' does not exist or you do not have access to it.`,
  wrongCapability: (modelId, capability, needs) => `The model '${modelId}' is a ${capability} model and cannot serve this route (needs ${needs}).`,
};

/**
 * Which models a tenant may use and how each model reaches its upstreams, asked of accounts once and then
 * served from memory until an invalidation broadcast, a reconnection (broadcasts may have been missed) or the TTL.
 */
export class CatalogCache {
  private readonly routes: ReadThroughCache<CatalogChannelsReply>;
  private readonly visible: ReadThroughCache<Map<string, VisibleModel>>;
  private stopWatching: () => void = () => undefined;

  constructor(
    private readonly bus: NatsBus,
    ttlMs: number,
  ) {
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

  /** Follows invalidations (an event this version cannot read may concern anything: all is dropped) and reconnections. */
  watch(): void {
    const subscription = this.bus.subscribe(SUBJECTS.accounts.invalidated, (payload) => {
      const parsed = InvalidationEvent.safeParse(payload);
      this.invalidate(parsed.success ? parsed.data : 'all');
    });
    const stopReconnects = onReconnect(this.bus.connection, () => this.invalidate('all'));
    this.stopWatching = () => {
      subscription.unsubscribe();
      stopReconnects();
    };
  }

  close(): void {
    this.stopWatching();
  }

  /**
   * The model's channels, once the caller's key may use it (the model lists of the key and its project) and its
   * tenant sees it with this capability; otherwise the family's refusal.
   */
  async route(caller: RouteCaller, modelId: string, capability: Capability, wording: Partial<ModelFaultWording> = {}): Promise<CatalogChannelsReply> {
    const say = { ...PLAIN_WORDING, ...wording };
    const refusal = modelRefusal(caller, modelId);
    if (refusal !== null) throw new GatewayError('permission_denied', refusal, say.param);
    const model = (await this.visible.get(caller.tenantId)).get(modelId);
    if (!model) throw new GatewayError('model_not_found', say.notFound(modelId), say.param);
    if (model.capability !== capability) throw GatewayError.invalid(say.wrongCapability(modelId, model.capability, capability), say.param);
    const route = await this.routes.get(modelId);
    if (route.channels.length === 0) throw new GatewayError('unavailable', `The model '${modelId}' has no upstream channel configured.`);
    return route;
  }

  /** The model's channels whoever asks: for work a tenant was already authorized for (tasks, assistants' objects). */
  async channels(modelId: string): Promise<CatalogChannelsReply> {
    return this.routes.get(modelId);
  }

  /** The ids of the models of this capability the tenant may use, in the catalog's order. */
  async modelIds(tenantId: string, capability: Capability): Promise<string[]> {
    return [...(await this.visible.get(tenantId)).values()].filter((model) => model.capability === capability).map((model) => model.id);
  }

  /** The first model of this capability the tenant may use, for routes that may omit `model`. */
  async defaultModel(tenantId: string, capability: Capability, message = `No ${capability} model is available to this key.`): Promise<string> {
    for (const model of (await this.visible.get(tenantId)).values()) if (model.capability === capability) return model.id;
    throw new GatewayError('model_not_found', message, 'model');
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
