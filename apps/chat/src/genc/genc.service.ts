import { BillingClient } from '@gateway/billing';
import { GencCallPayload, GenerateContentRequest, parseOrThrow } from '@gateway/contracts';
import { fromGencRequest, orderChannels } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { ChatExecutionService } from '../translation/chat-execution.service';
import { createChatCall } from '../translation/chat-call';
import { UsageMeter } from '../usage/usage-meter';

const FAMILY = 'genc';

/**
 * The genc family: generateContent and streamGenerateContent against whatever protocol the model's
 * channels speak (Gemini ones get the body as sent). The model and the streaming flag come from the path.
 */
@Injectable()
export class GencService {
  constructor(
    private readonly claimCheck: ClaimCheckService,
    private readonly catalog: CatalogService,
    private readonly execution: ChatExecutionService,
    private readonly billing: BillingClient,
  ) {}

  async generate(payload: unknown, signal: AbortSignal): Promise<unknown> {
    const caller = parseOrThrow(GencCallPayload, payload);
    const meter = new UsageMeter(caller, FAMILY, caller.model);
    try {
      const body = parseOrThrow(GenerateContentRequest, await this.claimCheck.body(caller));
      const route = await this.catalog.route(caller.tenantId, caller.model, 'chat');
      await this.billing.reserve({ requestId: caller.requestId, tenantId: caller.tenantId, keyKind: caller.keyKind, model: route.model, body });
      const call = createChatCall({
        family: FAMILY,
        caller,
        modelId: caller.model,
        channels: orderChannels(route.channels),
        body,
        decode: () => fromGencRequest(body, caller.model, caller.stream),
        stream: caller.stream,
        meter,
      });
      return await this.execution.execute(call, signal);
    } catch (error) {
      await this.execution.recordFailure(meter, error);
      throw error;
    }
  }
}
