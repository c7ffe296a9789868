import { GatewayError, type CatalogChannel, type TenantCaller } from '@gateway/contracts';
import {
  chatUpstreamOf as upstreamOf,
  countTokens,
  NATIVE_FAMILY,
  parseSse,
  UPSTREAM_CHAT,
  type ChatIrRequest,
  type ChatUpstream,
  type IrFamily,
  type SseEvent,
  type UpstreamResponse,
} from '@gateway/providers';
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

/** The chat codec a channel is served by; a channel of a non-chat protocol cannot serve a chat call. */
export function chatUpstreamOf(channel: CatalogChannel): ChatUpstream {
  const upstream = upstreamOf(channel);
  if (upstream) return upstream;
  throw new GatewayError('unavailable', `The channel's upstream protocol "${channel.protocol}" cannot serve chat.`);
}

/** Same wire format on both sides: the body goes through as sent, only the model name changes. */
export function isPassThrough(family: IrFamily, upstream: ChatUpstream): boolean {
  return NATIVE_FAMILY[upstream] === family;
}

/** An answer stream's events, read in the framing of the channel's protocol. */
export function eventsOf(channel: CatalogChannel, response: UpstreamResponse): AsyncGenerator<SseEvent> {
  const read = UPSTREAM_CHAT[chatUpstreamOf(channel)].readEvents;
  return read ? read(response.body) : parseSse(response.body);
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
