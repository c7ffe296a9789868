// Reads an AWS event stream (ConverseStream, InvokeModelWithResponseStream) with the SDK's own framing
// (whole messages cut from the bytes by their length prelude, then decoded and checksummed) and hands each event on as the SSE-shaped message the stream decoders take: `{event: :event-type, data}`.
// An exception message is thrown as the GatewayError it stands for.
import { getChunkedStream } from '@smithy/core/event-streams';
import { EventStreamCodec, type Message } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { parseOrThrow } from '@gateway/contracts';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { SseEvent } from '../../http/sse-stream.parser';
import type { SseMessage } from '../../ir/chat-ir.schema';
import { parseUpstreamBody } from '../../ir/upstream-error';
import { bedrockStreamException } from './bedrock-error.transform';

function headerText(message: Message, name: string): string | null {
  const header = message.headers[name];
  return header && header.type === 'string' ? header.value : null;
}

function messageOf(body: string): string {
  try {
    const value: unknown = JSON.parse(body);
    if (value !== null && typeof value === 'object' && 'message' in value && typeof value.message === 'string') return value.message;
  } catch {
    // not JSON: the body is the message
  }
  return body;
}

function toSse(message: Message): SseEvent {
  const body = toUtf8(message.body);
  const kind = headerText(message, ':message-type');
  if (kind === 'event') return { event: headerText(message, ':event-type') ?? '', data: body };
  if (kind === 'exception') throw bedrockStreamException(headerText(message, ':exception-type') ?? 'internalServerException', messageOf(body));
  throw bedrockStreamException(headerText(message, ':error-code') ?? 'internalServerException', headerText(message, ':error-message') ?? messageOf(body));
}

export async function* readBedrockEventStream(body: Readable): AsyncGenerator<SseEvent> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  for await (const message of getChunkedStream(body as AsyncIterable<Uint8Array>)) yield toSse(codec.decode(message));
}

const InvokeChunk = z.object({ bytes: z.string() }).loose();
const TypedEvent = z.object({ type: z.string() }).loose();

/**
 * InvokeModelWithResponseStream wraps each of the model's own stream events in a `chunk` event as base64
 * bytes: for Claude, the Messages stream event the Anthropic decoder reads, named by its `type`.
 */
export function unwrapInvokeChunk(message: SseMessage): SseMessage {
  const chunk = parseUpstreamBody(() => parseOrThrow(InvokeChunk, JSON.parse(message.data)));
  const data = Buffer.from(chunk.bytes, 'base64').toString('utf8');
  const event = parseUpstreamBody(() => parseOrThrow(TypedEvent, JSON.parse(data)));
  return { event: event.type, data };
}
