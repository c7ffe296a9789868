import { BillingClient, capChatOutput, type ChatShape } from '@gateway/billing';
import { OaicCallPayload, parseOrThrow, type CatalogChannel, type OaicCaller } from '@gateway/contracts';
import { orderChannels } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { CatalogService, type ModelRoute } from '../catalog/catalog.service';
import { ResponsesService } from '../responses/responses.service';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { UsageMeter } from '../usage/usage-meter';
import { channelsFor } from './compatible-channels';
import { OPERATIONS, type JsonOperation } from './oaic-operation';

export interface PreparedCall {
  caller: OaicCaller;
  body: Record<string, unknown>;
  modelId: string;
  route: ModelRoute;
  /** The order to try them in (providers' priority and weight rules), fixed for this request. */
  channels: CatalogChannel[];
  meter: UsageMeter;
}

/** The operations that generate text, by where their bodies name the output cap. */
const CHAT_SHAPES: Partial<Record<JsonOperation, ChatShape>> = { chat: 'oaic-chat', completions: 'oaic-completions', responses: 'oaic-responses' };

/** Turns a NATS payload into a checked request: body redeemed and parsed, model visible to the tenant, channels known. */
@Injectable()
export class OaicRequestService {
  constructor(
    private readonly claimCheck: ClaimCheckService,
    private readonly catalog: CatalogService,
    private readonly billing: BillingClient,
    private readonly responses: ResponsesService,
  ) {}

  parseCaller(payload: unknown): OaicCallPayload {
    return parseOrThrow(OaicCallPayload, payload);
  }

  /** `meter` is filled as far as known, so a failure here is still recorded. */
  async prepare(op: JsonOperation, payload: OaicCallPayload, meter: UsageMeter): Promise<PreparedCall> {
    const spec = OPERATIONS[op];
    const body = parseOrThrow(spec.schema, await this.claimCheck.body(payload));
    const requested = typeof body.model === 'string' ? body.model : undefined;
    const modelId = requested ?? (await this.catalog.defaultModel(payload.tenantId, spec.capability));
    meter.modelId = modelId;
    const route = await this.catalog.route(payload.tenantId, modelId, spec.capability);
    let channels = channelsFor(op, modelId, route.channels);
    const previous = op === 'responses' ? body.previous_response_id : undefined;
    if (typeof previous === 'string' && previous !== '') {
      // The conversation lives with the upstream that answered it, under its own id.
      const continuation = await this.responses.continuation(payload.tenantId, previous, channels);
      body.previous_response_id = continuation.upstreamId;
      channels = [continuation.channel];
    }
    // The upstream is asked for no more output than is reserved (the model's limit when the body names no cap).
    const shape = CHAT_SHAPES[op];
    if (shape) capChatOutput(shape, body, route.model.defaultMaxTokens);
    // Before any upstream call: a request its balance or quota cannot cover fails here.
    await this.billing.reserve({ requestId: payload.requestId, tenantId: payload.tenantId, keyKind: payload.keyKind, model: route.model, body });
    return { caller: payload, body, modelId, route, channels: orderChannels(channels), meter };
  }
}
