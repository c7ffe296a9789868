import { BillingClient, capChatOutput } from '@gateway/billing';
import type { ReplyNote, RequestCache, TenantCaller } from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import { orderChannels, type ChatIrRequest, type IrFamily } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { cachedOperationOf } from '../cache/cache-key';
import { ResponseCacheService } from '../cache/response-cache.service';
import { MeteringService } from '../usage/metering.service';
import type { UsageMeter } from '../usage/usage-meter';
import { ChatPipeline, createChatCall } from './chat-pipeline.service';

/** A family's request once its body is parsed: what the run needs of it. */
export interface FamilyChatRequest {
  modelId: string;
  body: Record<string, unknown>;
  stream: boolean;
  decode: () => ChatIrRequest;
  /** The response cache the caller may use; absent: off. */
  cache?: RequestCache;
}

/**
 * A msgc or genc request from its payload to the answer: the family parses its body (`prepare`), then
 * the tenant's route to the model, the billing reservation and the run, the same for every family. The
 * usage lifecycle starts here: any failure on the way, parsing included, is recorded as the request's
 * usage before it is rethrown (unless its answer was already metered).
 */
@Injectable()
export class FamilyChatService {
  constructor(
    private readonly catalog: CatalogCache,
    private readonly billing: BillingClient,
    private readonly pipeline: ChatPipeline,
    private readonly metering: MeteringService,
    private readonly cache: ResponseCacheService,
  ) {}

  async serve(
    family: IrFamily,
    caller: TenantCaller,
    meter: UsageMeter,
    prepare: () => Promise<FamilyChatRequest>,
    signal: AbortSignal,
    note?: ReplyNote,
  ): Promise<unknown> {
    const metered = this.metering.start(meter, note);
    try {
      const { modelId, body, stream, decode, cache } = await prepare();
      meter.modelId = modelId;
      const route = await this.catalog.route(caller.tenantId, modelId, 'chat');
      // Looked up before any hold: a hit holds only its own price.
      const plan = cache
        ? this.cache.plan({ cache, tenantId: caller.tenantId, operation: cachedOperationOf(family), model: modelId, body, stream, note })
        : null;
      const hit = plan ? await this.cache.lookup(plan, note) : null;
      if (hit) return await this.cache.serve(hit, { family, caller, model: route.model, modelId, stream, metered });
      // The upstream, same protocol or translated, is asked for no more output than is reserved.
      capChatOutput(family === 'oaic' ? 'oaic-chat' : family, body, route.model.defaultMaxTokens);
      await this.billing.reserve({ requestId: caller.requestId, tenantId: caller.tenantId, keyKind: caller.keyKind, model: route.model, body });
      const call = createChatCall({ family, caller, modelId, channels: orderChannels(route.channels), body, decode, stream, metered });
      return await this.pipeline.run(call, signal, plan);
    } catch (error) {
      metered.fail(error);
      throw error;
    }
  }
}
