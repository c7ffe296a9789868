import {
  chatAnswerAsCompletion,
  chatAnswerAsResponse,
  ChatStreamAsCompletions,
  ChatStreamAsResponseEvents,
  completionAsChatRequest,
  fromUpstream,
  readBodyJson,
  responseAsChatRequest,
  toUpstream,
  type ResponseOrigin,
} from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ResponsesService } from '../responses/responses.service';
import { needsTranslation, oaicChatCall, type ChatCall } from './chat-call';
import { chatAnswer, chatStreamFrames } from './chat-frames';
import { rewrittenFrames } from './oaic-as-chat';
import { oaicAnswerUsage, oaicStreamFrames, type OaicTextCall } from './oaic-frames';
import { relayStream, type StreamFrames } from './stream-relay';
import { UpstreamCallService } from './upstream-call.service';

type ChatAnswer = Record<string, unknown> | AsyncGenerator<Uint8Array>;
type OaicCall<Op extends OaicTextCall['op']> = Extract<OaicTextCall, { op: Op }>;

/**
 * The chat pipeline: a chat request of any family, whole or streamed, on the model's channels in order.
 * On the family's own protocol the body goes out as sent and the answer comes back as it came, only the
 * model renamed; on another, through the providers' IR and the family's codec. Usage is recorded durably
 * before the client sees the end. oaic completions and responses on a non-OpenAI channel are answered as chat.
 */
@Injectable()
export class ChatPipeline {
  constructor(
    private readonly upstream: UpstreamCallService,
    private readonly records: ResponsesService,
  ) {}

  /** A chat call of any family (msgc, genc, or oaic chat on a model with a channel of another protocol). */
  run(call: ChatCall, signal: AbortSignal): Promise<ChatAnswer> {
    return call.stream ? this.stream(call, signal) : this.unary(call, signal);
  }

  chat(call: OaicCall<'chat'>, signal: AbortSignal): Promise<unknown> {
    if (!needsTranslation('oaic', call.channels)) return this.openai(call, signal);
    return this.run(oaicChatCall(call, call.body), signal);
  }

  async completions(call: OaicCall<'completions'>, signal: AbortSignal): Promise<unknown> {
    if (!needsTranslation('oaic', call.channels)) return this.openai(call, signal);
    const chat = oaicChatCall(call, completionAsChatRequest(call.body));
    if (!chat.stream) return chatAnswerAsCompletion(await this.unary(chat, signal));
    const rewrite = new ChatStreamAsCompletions();
    return this.stream(chat, signal, (frames) => rewrittenFrames(frames, (text) => rewrite.push(text)));
  }

  /** A response answered as chat is stored for retrieval like any other, before its last event is sent. */
  async responses(call: OaicCall<'responses'>, signal: AbortSignal): Promise<unknown> {
    if (!needsTranslation('oaic', call.channels)) return this.openai(call, signal);
    const request = call.body;
    const origin: ResponseOrigin = { id: this.records.newId(), createdAt: Math.floor(Date.now() / 1000), model: call.modelId, request };
    const chat = oaicChatCall(call, responseAsChatRequest(request));
    if (!chat.stream) {
      const response = chatAnswerAsResponse(await this.unary(chat, signal), origin);
      await this.records.save(call.caller.tenantId, { ...response, id: origin.id });
      return response;
    }
    const rewrite = new ChatStreamAsResponseEvents(origin);
    let saved = false;
    const settle = async () => {
      if (!rewrite.final || saved) return;
      saved = true;
      await this.records.save(call.caller.tenantId, { ...rewrite.final, id: origin.id });
    };
    return this.stream(chat, signal, (frames) => rewrittenFrames(frames, (text) => rewrite.push(text), settle));
  }

  private async unary(call: ChatCall, signal: AbortSignal): Promise<Record<string, unknown>> {
    const { channel, response } = await this.upstream.openChat(call, signal);
    call.metered.meter.channelId = channel.id;
    const answer = chatAnswer(call, channel, await readBodyJson(response.body));
    call.metered.succeed();
    return answer;
  }

  private async stream(call: ChatCall, signal: AbortSignal, shape = (frames: StreamFrames) => frames): Promise<AsyncGenerator<Uint8Array>> {
    const opened = await this.upstream.openChatStream(call, signal);
    call.metered.meter.channelId = opened.channel.id;
    return relayStream(opened, shape(chatStreamFrames(call, opened.channel)), call.metered, signal);
  }

  /** An oaic text request on a model whose channels all speak the OpenAI protocol: its own route upstream, as sent. */
  private async openai(call: OaicTextCall, signal: AbortSignal): Promise<unknown> {
    const stream = call.body.stream === true;
    const build = (ch: OaicTextCall['channels'][number]) => toUpstream(call.op, call.body, ch, { stream });
    if (stream) {
      const opened = await this.upstream.openStream(call.channels, build, signal);
      call.metered.meter.channelId = opened.channel.id;
      return relayStream(opened, oaicStreamFrames(call, opened.channel, this.records), call.metered, signal);
    }
    const { channel, response } = await this.upstream.open(call.channels, build, signal);
    call.metered.meter.channelId = channel.id;
    let answer = fromUpstream(call.op, await readBodyJson(response.body), call.modelId);
    oaicAnswerUsage(call, answer);
    if (call.op === 'responses') answer = await this.records.store(call.caller.tenantId, answer, channel.id);
    call.metered.succeed();
    return answer;
  }
}
