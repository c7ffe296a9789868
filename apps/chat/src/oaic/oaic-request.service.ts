import type { ChatShape } from '@gateway/billing';
import {
  ChatCompletionRequest,
  CompletionRequest,
  EmbeddingRequest,
  GatewayError,
  ImageGenerationRequest,
  ModerationRequest,
  OaicCallPayload,
  parseOrThrow,
  ResponseCreateRequest,
  SpeechRequest,
  type Capability,
  type CatalogChannel,
  type CatalogChannelsReply,
  type ReplyNote,
  type TenantCaller,
} from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import type { OaicOperation } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { cachedOperationOf } from '../cache/cache-key';
import type { CacheHit, CachePlan } from '../cache/response-cache.service';
import { ClaimCheckService } from '../claim-check/claim-check.service';
import { ChatAdmission } from '../pipeline/chat-admission.service';
import { ResponsesService } from '../responses/responses.service';
import type { MeteredStream } from '../usage/metered-stream';

export type JsonOperation = Exclude<OaicOperation, 'transcriptions' | 'translations'>;

/** The schema of each JSON-bodied oaic operation. */
const SCHEMAS = {
  chat: ChatCompletionRequest,
  completions: CompletionRequest,
  responses: ResponseCreateRequest,
  embeddings: EmbeddingRequest,
  moderations: ModerationRequest,
  images: ImageGenerationRequest,
  speech: SpeechRequest,
} satisfies Record<JsonOperation, z.ZodType>;

type OperationBodies = { [Op in JsonOperation]: z.infer<(typeof SCHEMAS)[Op]> };

/** The same schemas, each typed by its own operation's body, so that a generic operation keeps its body type. */
const TYPED_SCHEMAS: { [Op in JsonOperation]: z.ZodType<OperationBodies[Op]> } = SCHEMAS;

/** A parsed body with the operation it was parsed for: narrowing `op` narrows `body`. */
export type OperationRequestOf<Op extends JsonOperation> = { [K in Op]: { op: K; body: OperationBodies[K] } }[Op];

/** Which kind of model serves each operation. */
export const CAPABILITIES: Record<JsonOperation, Capability> = {
  chat: 'chat',
  completions: 'chat',
  responses: 'chat',
  embeddings: 'embedding',
  moderations: 'moderation',
  images: 'image',
  speech: 'tts',
};

/** Parses a body by its operation's schema; a refusal names the field at fault. */
export function parseOperation<Op extends JsonOperation>(op: Op, body: unknown): OperationRequestOf<Op> {
  const schema: z.ZodType<OperationBodies[Op]> = TYPED_SCHEMAS[op];
  return { op, body: parseOrThrow(schema, body) };
}

/** The schema a body of `op` is parsed by, here or (for a body the edge marks checked) at the edge. */
export function operationSchema(op: JsonOperation): z.ZodType {
  return SCHEMAS[op];
}

/** The operations that cross protocols: chat through the IR, completions and responses answered as chat. */
const ACROSS_PROTOCOLS = ['chat', 'completions', 'responses'] as const;
type AcrossProtocols = (typeof ACROSS_PROTOCOLS)[number];

/** The route of each operation that only OpenAI-compatible upstreams serve, for the refusal's message. */
const ROUTES: Record<Exclude<OaicOperation, AcrossProtocols>, string> = {
  embeddings: 'POST /oaic/v1/embeddings',
  moderations: 'POST /oaic/v1/moderations',
  images: 'POST /oaic/v1/images/generations',
  speech: 'POST /oaic/v1/audio/speech',
  transcriptions: 'POST /oaic/v1/audio/transcriptions',
  translations: 'POST /oaic/v1/audio/translations',
};

function crossesProtocols(op: OaicOperation): op is AcrossProtocols {
  return (ACROSS_PROTOCOLS as readonly OaicOperation[]).includes(op);
}

/**
 * The channels an oaic operation can use. Chat, completions and responses cross protocols; every other
 * operation is sent as the OpenAI protocol has it, so only OpenAI-compatible channels serve it. A model
 * with none is refused before any upstream call or billing hold.
 */
export function channelsFor(op: OaicOperation, modelId: string, channels: readonly CatalogChannel[]): CatalogChannel[] {
  if (crossesProtocols(op)) return [...channels];
  const compatible = channels.filter((channel) => channel.protocol === 'openai');
  if (compatible.length > 0) return compatible;
  const protocols = [...new Set(channels.map((channel) => channel.protocol))].join(' and ');
  throw GatewayError.invalid(
    `The model '${modelId}' is served only by ${protocols}-protocol upstreams, and ${ROUTES[op]} reaches OpenAI-compatible upstreams only.`,
    'model',
  );
}

/**
 * Image generation for a model that no OpenAI-compatible channel serves but a native-media (Kling-style)
 * one does: the media service runs it as a native image task. Decided on the channels the request's one
 * catalog lookup already brought.
 */
export function servedAsMediaTask(op: OaicOperation, channels: readonly CatalogChannel[]): boolean {
  return op === 'images' && !channels.some((channel) => channel.protocol === 'openai') && channels.some((channel) => channel.protocol === 'kling');
}

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
    const route = await this.catalog.route(payload.tenantId, modelId, CAPABILITIES[op]);
    if (servedAsMediaTask(op, route.channels)) {
      if (!payload.origin) throw new GatewayError('internal', 'The edge sent no public origin for the image links (origin).');
      return { ...request, caller: payload, modelId, route, channels: [], metered, mediaTask: { origin: payload.origin } };
    }
    let channels = channelsFor(op, modelId, route.channels);
    const continuation =
      request.op === 'responses' && request.body.previous_response_id
        ? await this.continuation(payload.tenantId, request.body.previous_response_id, channels)
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

  /**
   * What a request naming `previousId` continues: the conversation lives with the upstream that answered,
   * under its own id, so the request goes to that channel only. Another tenant's id is not found.
   */
  private async continuation(
    tenantId: string,
    previousId: string,
    channels: readonly CatalogChannel[],
  ): Promise<{ upstreamId: string; channel: CatalogChannel }> {
    const source = await this.responses.source(tenantId, previousId);
    if (!source) throw GatewayError.notFound(`No response found with id '${previousId}'.`, 'previous_response_id');
    if (!source.upstreamId || !source.channelId) {
      throw GatewayError.invalid(
        `The response '${previousId}' was answered through chat and cannot be continued by id; send its output as input items instead.`,
        'previous_response_id',
      );
    }
    const channel = channels.find((c) => c.id === source.channelId);
    if (!channel) {
      throw GatewayError.invalid(
        `The response '${previousId}' was answered by an upstream this model no longer uses; send its output as input items instead.`,
        'previous_response_id',
      );
    }
    return { upstreamId: source.upstreamId, channel };
  }
}
