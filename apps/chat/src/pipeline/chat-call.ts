import { GatewayError, type CatalogChannel, type TenantCaller } from '@gateway/contracts';
import { countTokens, NATIVE_FAMILY, UPSTREAM_CHAT, type ChatIrRequest, type ChatProtocol, type IrFamily } from '@gateway/providers';
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

/** The chat protocol a channel speaks; a channel of a non-chat protocol cannot serve a chat call. */
export function chatProtocolOf(channel: CatalogChannel): ChatProtocol {
  if (channel.protocol in UPSTREAM_CHAT) return channel.protocol as ChatProtocol;
  throw new GatewayError('unavailable', `The channel's upstream protocol "${channel.protocol}" cannot serve chat.`);
}

/** Same wire format on both sides: the body goes through as sent, only the model name changes. */
export function isPassThrough(family: IrFamily, protocol: ChatProtocol): boolean {
  return NATIVE_FAMILY[protocol] === family;
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
