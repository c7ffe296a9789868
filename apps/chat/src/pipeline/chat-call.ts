import { GatewayError, type CatalogChannel, type ChatCompletionRequest, type TenantCaller } from '@gateway/contracts';
import { countTokens, fromOaicRequest, NATIVE_FAMILY, UPSTREAM_CHAT, type ChatIrRequest, type ChatProtocol, type IrFamily } from '@gateway/providers';
import { randomBytes } from 'node:crypto';
import type { MeteredStream } from '../usage/metered-stream';

/** One chat request of any public family, ready to run against the model's channels. */
export interface ChatCall {
  family: IrFamily;
  caller: TenantCaller;
  /** The public model id: what answers report and usage records. */
  modelId: string;
  /** In the order to try them, fixed for this request. */
  channels: CatalogChannel[];
  /** The body as the client sent it (checked by its family's schema): what a same-protocol upstream gets. */
  body: Record<string, unknown>;
  /** The request in the IR, decoded on first use: a pass-through call may never need it. */
  ir: () => ChatIrRequest;
  stream: boolean;
  metered: MeteredStream;
}

export interface ChatCallInit extends Omit<ChatCall, 'ir'> {
  decode: () => ChatIrRequest;
}

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

/** The chat protocol a channel speaks; a channel of a non-chat protocol cannot serve a chat call. */
export function chatProtocolOf(channel: CatalogChannel): ChatProtocol {
  if (channel.protocol in UPSTREAM_CHAT) return channel.protocol as ChatProtocol;
  throw new GatewayError('unavailable', `The channel's upstream protocol "${channel.protocol}" cannot serve chat.`);
}

/** Same wire format on both sides: the body goes through as sent, only the model name changes. */
export function isPassThrough(family: IrFamily, protocol: ChatProtocol): boolean {
  return NATIVE_FAMILY[protocol] === family;
}

/** Whether any of the channels speaks a protocol other than the family's own. */
export function needsTranslation(family: IrFamily, channels: readonly CatalogChannel[]): boolean {
  return channels.some((channel) => !(channel.protocol in UPSTREAM_CHAT) || !isPassThrough(family, channel.protocol as ChatProtocol));
}

/** The input estimate for upstreams that report no usage; a request the IR cannot hold counts as zero. */
export function estimatedInputTokens(call: ChatCall): number {
  try {
    return countTokens(call.ir());
  } catch {
    return 0;
  }
}

const ID_PREFIX: Record<IrFamily, string> = { oaic: 'chatcmpl-', msgc: 'msg_', genc: '' };

/** An answer id in the family's style, for upstreams that send none. */
export function fallbackId(family: IrFamily): string {
  return ID_PREFIX[family] + randomBytes(12).toString('base64url');
}
