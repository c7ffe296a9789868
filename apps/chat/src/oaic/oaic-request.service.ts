import { BillingClient, capChatOutput, type ChatShape } from '@gateway/billing';
import { GatewayError, OaicCallPayload, parseOrThrow, type CatalogChannel, type CatalogChannelsReply, type TenantCaller } from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import { orderChannels } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ResponsesService } from '../responses/responses.service';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import type { MeteredStream } from '../usage/metered-stream';
import { channelsFor, servedAsMediaTask } from './compatible-channels';
import { CAPABILITIES, parseOperation, type JsonOperation, type OperationRequestOf } from './oaic-operation';

interface CallContext {
  caller: TenantCaller;
  modelId: string;
  route: CatalogChannelsReply;
  /** The order to try them in (providers' priority and weight rules), fixed for this request. */
  channels: CatalogChannel[];
  metered: MeteredStream;
  /** Images of a native-media model: handed to the media service, which holds, runs and bills it as a task; its links go on `origin`. */
  mediaTask?: { origin: string };
}

/** A checked request of one of `Op`'s operations; narrowing `op` narrows `body` to that operation's shape. */
export type PreparedCall<Op extends JsonOperation = JsonOperation> = OperationRequestOf<Op> & CallContext;

/** The operations that generate text, by where their bodies name the output cap. */
const CHAT_SHAPES: Partial<Record<JsonOperation, ChatShape>> = { chat: 'oaic-chat', completions: 'oaic-completions', responses: 'oaic-responses' };

/** Turns a NATS payload into a checked request: body redeemed and parsed, model visible to the tenant, channels known. */
@Injectable()
export class OaicRequestService {
  constructor(
    private readonly claimCheck: ClaimCheckService,
    private readonly catalog: CatalogCache,
    private readonly billing: BillingClient,
    private readonly responses: ResponsesService,
  ) {}

  parseCaller(payload: unknown): OaicCallPayload {
    return parseOrThrow(OaicCallPayload, payload);
  }

  /** `metered` is filled as far as known, so a failure here is still recorded. */
  async prepare(op: JsonOperation, payload: OaicCallPayload, metered: MeteredStream): Promise<PreparedCall> {
    const request = parseOperation(op, await this.claimCheck.body(payload));
    const { body } = request;
    const modelId = body.model ?? (await this.catalog.defaultModel(payload.tenantId, CAPABILITIES[op]));
    metered.meter.modelId = modelId;
    const route = await this.catalog.route(payload.tenantId, modelId, CAPABILITIES[op]);
    if (servedAsMediaTask(op, route.channels)) {
      if (!payload.origin) throw new GatewayError('internal', 'The edge sent no public origin for the image links (origin).');
      return { ...request, caller: payload, modelId, route, channels: [], metered, mediaTask: { origin: payload.origin } };
    }
    let channels = channelsFor(op, modelId, route.channels);
    if (request.op === 'responses' && request.body.previous_response_id) {
      // The conversation lives with the upstream that answered it, under its own id.
      const continuation = await this.responses.continuation(payload.tenantId, request.body.previous_response_id, channels);
      request.body.previous_response_id = continuation.upstreamId;
      channels = [continuation.channel];
    }
    // The upstream is asked for no more output than is reserved (the model's limit when the body names no cap).
    const shape = CHAT_SHAPES[op];
    if (shape) capChatOutput(shape, body, route.model.defaultMaxTokens);
    // Before any upstream call: a request its balance or quota cannot cover fails here.
    await this.billing.reserve({ requestId: payload.requestId, tenantId: payload.tenantId, keyKind: payload.keyKind, model: route.model, body });
    return { ...request, caller: payload, modelId, route, channels: orderChannels(channels), metered };
  }
}
