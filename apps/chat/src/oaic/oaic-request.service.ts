import type { ChatShape } from '@gateway/billing';
import {
  GatewayError,
  OaicCallPayload,
  parseOrThrow,
  type CatalogChannel,
  type CatalogChannelsReply,
  type ReplyNote,
  type TenantCaller,
} from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { cachedOperationOf } from '../cache/cache-key';
import type { CacheHit, CachePlan } from '../cache/response-cache.service';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { ChatAdmission } from '../pipeline/chat-admission.service';
import { ResponsesService } from '../responses/responses.service';
import type { MeteredStream } from '../usage/metered-stream';
import { CAPABILITIES, channelsFor, parseOperation, servedAsMediaTask, type JsonOperation, type OperationRequestOf } from './oaic-codec';

export type { JsonOperation } from './oaic-codec';

interface CallContext {
  caller: TenantCaller;
  modelId: string;
  route: CatalogChannelsReply;
  /** The order to try them in (providers' priority and weight rules), fixed for this request. */
  channels: CatalogChannel[];
  /** Whether the answer is streamed (chat, completions and responses, as the body asks). */
  stream?: boolean;
  metered: MeteredStream;
  /** The response cache's plan for the request (null: not cached), and the entry found for it. */
  cachePlan?: CachePlan | null;
  cacheHit?: CacheHit | null;
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
    private readonly admission: ChatAdmission,
    private readonly responses: ResponsesService,
  ) {}

  parseCaller(payload: unknown): OaicCallPayload {
    return parseOrThrow(OaicCallPayload, payload);
  }

  /**
   * `metered` is filled as far as known, so a failure here is still recorded. After the operation's own
   * steps (a native-media image task, the channels it may use, a responses continuation), admission as
   * for every family: a request found in the response cache comes back with its entry before any hold.
   */
  async prepare(op: JsonOperation, payload: OaicCallPayload, metered: MeteredStream, note?: ReplyNote): Promise<PreparedCall> {
    const sent = await this.claimCheck.body(payload);
    const request = payload.checked ? ({ op, body: sent } as OperationRequestOf<typeof op>) : parseOperation(op, sent);
    const { body } = request;
    const modelId = body.model ?? (await this.catalog.defaultModel(payload.tenantId, CAPABILITIES[op]));
    metered.meter.modelId = modelId;
    const route = await this.catalog.route(payload, modelId, CAPABILITIES[op]);
    if (servedAsMediaTask(op, route.channels)) {
      if (!payload.origin) throw new GatewayError('internal', 'The edge sent no public origin for the image links (origin).');
      return { ...request, caller: payload, modelId, route, channels: [], metered, mediaTask: { origin: payload.origin } };
    }
    let channels = channelsFor(op, modelId, route.channels);
    const continuation =
      request.op === 'responses' && request.body.previous_response_id
        ? await this.responses.continuationOf(payload.tenantId, request.body.previous_response_id, channels)
        : null;
    if (continuation) channels = [continuation.channel];
    const stream = 'stream' in body && body.stream === true;
    const admitted = await this.admission.admit({
      caller: payload,
      modelId,
      route,
      channels,
      body: body as Record<string, unknown>,
      stream,
      shape: CHAT_SHAPES[op] ?? null,
      operation: cachedOperationOf('oaic', op),
      cache: payload.cache,
      note,
      beforeHold: () => {
        if (continuation && request.op === 'responses') request.body.previous_response_id = continuation.upstreamId;
      },
    });
    if (admitted.hit) return { ...request, caller: payload, modelId, route, channels: [], stream, metered, cacheHit: admitted.hit };
    return { ...request, caller: payload, modelId, route, channels: admitted.channels, stream, metered, cachePlan: admitted.plan };
  }
}
