import type { CatalogChannel, ChatCompletionRequest } from '@gateway/contracts';
import {
  chatUpstreamOf,
  completionAsChatRequest,
  fromOaicRequest,
  NATIVE_FAMILY,
  readBodyJson,
  responseAsChatRequest,
  type ChatIrRequest,
  type IrFamily,
} from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ResponseCacheService, type CachePlan } from '../cache/response-cache.service';
import { ResponsesService } from '../responses/responses.service';
import type { ChatCall } from './chat-call';
import type { ChatCodec, CodecOf, PipelineCall } from './chat-codec';
import { familyChatCodec } from './family-chat.codec';
import { completionsAsChatCodec, responsesAsChatCodec, type ResponseAsChatCall } from './oaic-as-chat.codec';
import { openaiRouteCodec, type OaicRouteCall } from './openai-route.codec';
import { relayStream, UpstreamCallService } from './upstream-call.service';

export interface ChatCallInit extends Omit<ChatCall, 'ir'> {
  decode: () => ChatIrRequest;
}

/** A chat call whose IR is decoded on first use: a pass-through call may never need it. */
export function createChatCall(init: ChatCallInit): ChatCall {
  const { decode, ...rest } = init;
  let ir: ChatIrRequest | undefined;
  return { ...rest, ir: () => (ir ??= decode()) };
}

/** An oaic chat request (body already checked as a chat completion request) as a call like any family's. */
export function oaicChatCall(prepared: Pick<ChatCall, 'caller' | 'modelId' | 'channels' | 'metered'>, body: ChatCompletionRequest): ChatCall {
  const { caller, modelId, channels, metered } = prepared;
  return createChatCall({ family: 'oaic', caller, modelId, channels, body, decode: () => fromOaicRequest(body), stream: body.stream === true, metered });
}

/** Whether any of the channels speaks a protocol other than the family's own. */
export function needsTranslation(family: IrFamily, channels: readonly CatalogChannel[]): boolean {
  return channels.some((channel) => {
    const upstream = chatUpstreamOf(channel);
    return upstream === null || NATIVE_FAMILY[upstream] !== family;
  });
}

type ChatAnswer = Record<string, unknown> | AsyncGenerator<Uint8Array>;
type OaicRequest<Op extends OaicRouteCall['op']> = Extract<OaicRouteCall, { op: Op }>;
/** The oaic operations the pipeline answers. */
export type OaicChatRequest = OaicRequest<'chat' | 'completions' | 'responses'>;

/** One call with the codec made for it: all the pipeline runs. */
interface PipelineRun {
  call: PipelineCall;
  codec: ChatCodec;
}

/**
 * The chat pipeline: one request, whole or streamed, on the model's channels in order, through one
 * upstream call and one stream relay, usage recorded durably before the client sees the end. What
 * differs between a family's own protocol, another protocol and an oaic route answered as chat is
 * only the codec it runs with. On a model whose channels all speak the OpenAI protocol, each oaic
 * route goes out as its own.
 */
@Injectable()
export class ChatPipeline {
  private readonly familyChat: CodecOf<ChatCall>;
  private readonly openaiRoute: CodecOf<OaicRouteCall>;
  private readonly completionsAsChat: CodecOf<ChatCall>;
  private readonly responsesAsChat: CodecOf<ResponseAsChatCall>;

  constructor(
    private readonly upstream: UpstreamCallService,
    private readonly records: ResponsesService,
    private readonly cache: ResponseCacheService,
  ) {
    this.familyChat = familyChatCodec(upstream);
    this.openaiRoute = openaiRouteCodec(records);
    this.completionsAsChat = completionsAsChatCodec(this.familyChat);
    this.responsesAsChat = responsesAsChatCodec(this.familyChat, records);
  }

  /** A chat call of any family: its own protocol passed through, any other through the IR; a whole answer is cached as `cache` says. */
  run(call: ChatCall, signal: AbortSignal, cache?: CachePlan | null): Promise<ChatAnswer> {
    return this.execute({ call, codec: this.familyChat(call) }, signal, cache);
  }

  /** An oaic chat, completions or responses request: sent as it is to OpenAI channels, as chat to any other. */
  oaic(request: OaicChatRequest, signal: AbortSignal, cache?: CachePlan | null): Promise<ChatAnswer> {
    const run = this.planOf(request);
    return this.execute(run, signal, cache);
  }

  private planOf(request: OaicChatRequest): PipelineRun {
    if (!needsTranslation('oaic', request.channels)) return { call: request, codec: this.openaiRoute(request) };
    switch (request.op) {
      case 'chat': {
        const chat = oaicChatCall(request, request.body);
        return { call: chat, codec: this.familyChat(chat) };
      }
      case 'completions': {
        const chat = oaicChatCall(request, completionAsChatRequest(request.body));
        return { call: chat, codec: this.completionsAsChat(chat) };
      }
      case 'responses': {
        const chat = this.responseAsChat(request);
        return { call: chat, codec: this.responsesAsChat(chat) };
      }
    }
  }

  private responseAsChat(request: OaicRequest<'responses'>): ResponseAsChatCall {
    const origin = { id: this.records.newId(), createdAt: Math.floor(Date.now() / 1000), model: request.modelId, request: request.body };
    return { ...oaicChatCall(request, responseAsChatRequest(request.body)), origin };
  }

  private async execute({ call, codec }: PipelineRun, signal: AbortSignal, cache?: CachePlan | null): Promise<ChatAnswer> {
    if (!call.stream) {
      const { channel, response } = await this.upstream.open(call.channels, codec.request, signal, codec.refusal);
      call.metered.meter.channelId = channel.id;
      const answer = await codec.answer(await readBodyJson(response.body), channel);
      call.metered.succeed();
      const settled = codec.settle ? await codec.settle(answer) : answer;
      if (cache) this.cache.keep(cache, settled, call.metered.meter.tokens);
      return settled;
    }
    const opened = await this.upstream.openStream(call.channels, codec.request, signal, codec.refusal);
    call.metered.meter.channelId = opened.channel.id;
    const relayed = relayStream(opened, codec.frames(opened.channel), call.metered, signal);
    return cache ? this.cache.keepStream(cache, relayed, () => call.metered.meter.tokens, signal) : relayed;
  }
}
