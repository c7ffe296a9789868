// The two faces every chat translation is built from: a vendor's codec (IR → its HTTP call, its answers,
// streams and errors → IR) and a client family's codec (IR answers and stream events → the family's
// shape). Vendors and families implement these; the translation registry pairs them.
import type { ChannelTarget, UpstreamRequest } from '../provider.types';
import type { Readable } from 'node:stream';
import type { ChatIrRequest, ChatIrResponse, DecodeContext, IrFamily, IrStreamDecoder, IrStreamEncoder } from './chat-ir.schema';
import type { SseEvent } from '../http/sse-stream.parser';
import type { UpstreamErrorTransform } from './upstream-error';

export interface UpstreamChatCodec {
  /** The client family whose field names this protocol's refusals use, and with `passThrough`, whose wire format it speaks. */
  nativeFamily: IrFamily;
  toRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest;
  /**
   * The call for a client of the native family: its body as sent (unknown fields included), only the model
   * swapped. Absent for a protocol no client family speaks (Bedrock's Converse): every family is translated.
   */
  passThrough?(body: Record<string, unknown>, channel: ChannelTarget, stream: boolean): UpstreamRequest;
  /** The answer stream's events, for a protocol framed otherwise than server-sent events (AWS's event stream). */
  readEvents?(body: Readable): AsyncGenerator<SseEvent>;
  fromResponse(body: unknown, context: DecodeContext): ChatIrResponse;
  streamDecoder(context: DecodeContext): IrStreamDecoder;
  fromError: UpstreamErrorTransform;
  /** Where the protocol answers structured output through a tool: that tool's name for this request, whose input is the answer. */
  structuredOutputTool?(ir: ChatIrRequest): string | null;
}

export interface FamilyChatCodec {
  toResponse(response: ChatIrResponse): unknown;
  streamEncoder(fallbackId: string, model: string): IrStreamEncoder;
}
