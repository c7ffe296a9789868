// One lookup for the chat service: how each upstream protocol is called and read, and how each public
// family is written, so a (family × protocol) pair is two table reads rather than a switch at every call.
import type { ProviderProtocol } from '@gateway/contracts';
import { AnthropicStreamDecoder, fromAnthropicError, fromAnthropicResponse, toAnthropicRequest } from '../anthropic';
import { fromGeminiError, fromGeminiResponse, GeminiStreamDecoder, toGeminiRequest } from '../gemini';
import { fromUpstreamError } from '../openai/openai-error.map';
import type { ChannelTarget, UpstreamRequest } from '../provider.types';
import type { ChatIrRequest, ChatIrResponse, DecodeContext, IrFamily, IrStreamDecoder, IrStreamEncoder } from './chat-ir.schema';
import { GencStreamEncoder } from './genc-stream.encoder';
import { toGencResponse } from './genc-response.encoder';
import { MsgcStreamEncoder } from './msgc-stream.encoder';
import { toMsgcResponse } from './msgc-response.encoder';
import { OaicStreamEncoder } from './oaic-stream.encoder';
import { toOaicResponse } from './oaic-response.encoder';
import { fromOpenaiResponse, OpenaiStreamDecoder } from './openai-response.decoder';
import { toOpenaiRequest } from './openai-request.encoder';


export type ChatProtocol = Extract<ProviderProtocol, 'openai' | 'anthropic' | 'gemini'>;

export interface UpstreamChatCodec {
  toRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest;
  fromResponse(body: unknown, context: DecodeContext): ChatIrResponse;
  streamDecoder(context: DecodeContext): IrStreamDecoder;
  fromError: typeof fromUpstreamError;
}

export const UPSTREAM_CHAT: Record<ChatProtocol, UpstreamChatCodec> = {
  openai: { toRequest: toOpenaiRequest, fromResponse: fromOpenaiResponse, streamDecoder: (context) => new OpenaiStreamDecoder(context), fromError: fromUpstreamError },
  anthropic: { toRequest: toAnthropicRequest, fromResponse: fromAnthropicResponse, streamDecoder: (context) => new AnthropicStreamDecoder(context), fromError: fromAnthropicError },
  gemini: { toRequest: toGeminiRequest, fromResponse: fromGeminiResponse, streamDecoder: (context) => new GeminiStreamDecoder(context), fromError: fromGeminiError },
};

export interface FamilyChatCodec {
  toResponse(response: ChatIrResponse): unknown;
  streamEncoder(fallbackId: string, model: string): IrStreamEncoder;
}

export const FAMILY_CHAT: Record<IrFamily, FamilyChatCodec> = {
  oaic: { toResponse: (response) => toOaicResponse(response), streamEncoder: (id, model) => new OaicStreamEncoder(id, model) },
  msgc: { toResponse: toMsgcResponse, streamEncoder: (id, model) => new MsgcStreamEncoder(id, model) },
  genc: { toResponse: toGencResponse, streamEncoder: (id, model) => new GencStreamEncoder(id, model) },
};

/** The family whose wire format a protocol already speaks: that pair is passed through untranslated. */
export const NATIVE_FAMILY: Record<ChatProtocol, IrFamily> = { openai: 'oaic', anthropic: 'msgc', gemini: 'genc' };
