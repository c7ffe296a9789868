import { BillingClient } from '@gateway/billing';
import { CountTokensRequest, MessagesRequest, MsgcCallPayload, parseOrThrow, type CountTokensResponse } from '@gateway/contracts';
import { countTokens, fromMsgcRequest, orderChannels } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { CatalogService } from '../catalog/catalog.service';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { ChatExecutionService } from '../translation/chat-execution.service';
import { createChatCall } from '../translation/chat-call';
import { UsageMeter } from '../usage/usage-meter';

const FAMILY = 'msgc';

/**
 * The msgc family: messages against whatever protocol the model's channels speak (Anthropic ones get
 * the body as sent), and token counts estimated locally. Visibility and not-found are the catalog's.
 */
@Injectable()
export class MsgcService {
  constructor(
    private readonly claimCheck: ClaimCheckService,
    private readonly catalog: CatalogService,
    private readonly execution: ChatExecutionService,
    private readonly billing: BillingClient,
  ) {}

  async messages(payload: unknown, signal: AbortSignal): Promise<unknown> {
    const caller = parseOrThrow(MsgcCallPayload, payload);
    const meter = new UsageMeter(caller, FAMILY);
    try {
      const body = parseOrThrow(MessagesRequest, await this.claimCheck.body(caller));
      meter.modelId = body.model;
      const route = await this.catalog.route(caller.tenantId, body.model, 'chat');
      await this.billing.reserve({ requestId: caller.requestId, tenantId: caller.tenantId, keyKind: caller.keyKind, model: route.model, body });
      const call = createChatCall({
        family: FAMILY,
        caller,
        modelId: body.model,
        channels: orderChannels(route.channels),
        body,
        decode: () => fromMsgcRequest(body),
        stream: body.stream === true,
        meter,
      });
      return await this.execution.execute(call, signal);
    } catch (error) {
      await this.execution.recordFailure(meter, error);
      throw error;
    }
  }

  /** Generates nothing: the local estimate of the request's input, for a model the key may use. */
  async countTokens(payload: unknown): Promise<CountTokensResponse> {
    const caller = parseOrThrow(MsgcCallPayload, payload);
    const body = parseOrThrow(CountTokensRequest, await this.claimCheck.body(caller));
    await this.catalog.route(caller.tenantId, body.model, 'chat');
    return { input_tokens: countTokens(fromMsgcRequest(body)) };
  }
}
