import type { CatalogChannel, GatewayError } from '@gateway/contracts';
import type { SseEvent, UpstreamRequest } from '@gateway/providers';
import type { MeteredStream } from '../usage/metered-stream';

/** What a stream's codec writes for the client: the frames for each upstream event, then those that end the answer. */
export interface StreamFrames {
  push(event: SseEvent): string | Promise<string>;
  end(): string | Promise<string>;
  /** The last frames pushed were taken by the client. */
  sent?(): void;
}

/** What the pipeline needs of any call: its channels in the order to try them, whether it streams, its usage lifecycle. */
export interface PipelineCall {
  channels: readonly CatalogChannel[];
  stream?: boolean;
  metered: MeteredStream;
}

export type UpstreamHeaders = Record<string, string | string[] | undefined>;

/**
 * How one call goes out and how its answers come back, made for that call by its kind's codec. The
 * pipeline runs every kind alike; the kinds differ only here, each built from the providers' codecs.
 */
export interface ChatCodec {
  request(channel: CatalogChannel): UpstreamRequest;
  refusal(status: number, text: string, channel: CatalogChannel, headers?: UpstreamHeaders): GatewayError;
  /** The whole answer in the client's shape, with its usage put on the call's meter. */
  answer(json: unknown, channel: CatalogChannel): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** What follows an answer whose usage is recorded (a response answered as chat is stored for retrieval). */
  settle?(answer: Record<string, unknown>): Promise<Record<string, unknown>>;
  frames(channel: CatalogChannel): StreamFrames;
}

/** A kind of call's codec: makes each call's. */
export type CodecOf<C> = (call: C) => ChatCodec;
