import type { ReplyNote, RequestCache, TenantCaller } from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import type { ChatIrRequest } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { cachedOperationOf } from '../cache/cache-key';
import { ResponseCacheService } from '../cache/response-cache.service';
import { MeteringService } from '../usage/metering.service';
import type { UsageMeter } from '../usage/usage-meter';
import { ChatAdmission } from './chat-admission.service';
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
 * the tenant's route to the model, admission (cap, cache, hold: as for oaic) and the run. The
 * usage lifecycle starts here: any failure on the way, parsing included, is recorded as the request's
 * usage before it is rethrown (unless its answer was already metered).
 */
@Injectable()
export class FamilyChatService {
  constructor(
    private readonly catalog: CatalogCache,
    private readonly admission: ChatAdmission,
    private readonly pipeline: ChatPipeline,
    private readonly metering: MeteringService,
    private readonly cache: ResponseCacheService,
  ) {}

  async serve(
    family: 'msgc' | 'genc',
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
      const route = await this.catalog.route(caller, modelId, 'chat');
      const admitted = await this.admission.admit({
        caller,
        modelId,
        route,
        channels: route.channels,
        body,
        stream,
        shape: family,
        operation: cachedOperationOf(family),
        cache,
        note,
      });
      if (admitted.hit) return await this.cache.serve(admitted.hit, { family, caller, model: route.model, modelId, stream, metered });
      const call = createChatCall({ family, caller, modelId, channels: admitted.channels, body, decode, stream, metered });
      return await this.pipeline.run(call, signal, admitted.plan);
    } catch (error) {
      metered.fail(error);
      throw error;
    }
  }
}
