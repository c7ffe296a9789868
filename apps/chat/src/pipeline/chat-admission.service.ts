import { BillingClient, capChatOutput, type ChatShape } from '@gateway/billing';
import type { CatalogChannel, CatalogChannelsReply, ReplyNote, RequestCache, TenantCaller } from '@gateway/contracts';
import { orderChannels } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import type { CachedOperation } from '../cache/cache-key';
import { ResponseCacheService, type CacheHit, type CachePlan } from '../cache/response-cache.service';

/** A request of any family once its body is parsed and its model routed: what admission needs of it. */
export interface AdmissionRequest {
  caller: TenantCaller;
  modelId: string;
  /** The model and its channels, as the catalog routed the tenant's request. */
  route: CatalogChannelsReply;
  /** The channels that may serve it (all of the route's, or those its operation allows). */
  channels: readonly CatalogChannel[];
  body: Record<string, unknown>;
  stream: boolean;
  /** Where its body names the output cap; null for an operation that generates no text. */
  shape: ChatShape | null;
  /** Its operation in the response cache; undefined: never cached. */
  operation: CachedOperation | undefined;
  cache: RequestCache | undefined;
  note: ReplyNote | undefined;
  /** The body's last change once the cache has missed, before the hold (a continuation's upstream id). */
  beforeHold?: () => void;
}

/** A request let in: the cached answer that serves it, or the hold taken and the channels to try, in order. */
export type Admission = { hit: CacheHit } | { hit: null; plan: CachePlan | null; channels: CatalogChannel[] };

/**
 * The steps every chat-family request takes between its family's codec and the run, in one order: the
 * output capped (the upstream is asked for no more than is reserved), the response cache asked with the
 * whole request, then the billing hold (a request its balance or quota cannot cover fails here, before
 * any upstream call) and the channels ordered for this request.
 */
@Injectable()
export class ChatAdmission {
  constructor(
    private readonly cache: ResponseCacheService,
    private readonly billing: BillingClient,
  ) {}

  async admit(request: AdmissionRequest): Promise<Admission> {
    const { caller, modelId, route, body, stream, note } = request;
    if (request.shape) capChatOutput(request.shape, body, route.model.defaultMaxTokens);
    const plan =
      request.cache && request.operation
        ? this.cache.plan({ cache: request.cache, tenantId: caller.tenantId, operation: request.operation, model: modelId, body, stream, note })
        : null;
    const hit = plan ? await this.cache.lookup(plan, note) : null;
    if (hit) return { hit };
    request.beforeHold?.();
    await this.billing.reserve({
      requestId: caller.requestId,
      tenantId: caller.tenantId,
      keyKind: caller.keyKind,
      model: route.model,
      body,
      budgets: caller.budgets,
    });
    return { hit: null, plan, channels: orderChannels(request.channels) };
  }
}
