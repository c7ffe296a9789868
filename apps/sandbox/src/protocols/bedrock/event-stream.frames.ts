// AWS event-stream messages for ConverseStream and InvokeModelWithResponseStream, framed by the SDK's own codec.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';

export const EVENT_STREAM_CONTENT_TYPE = 'application/vnd.amazon.eventstream';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

const text = (value: string) => ({ type: 'string' as const, value });

export function eventMessage(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: { ':event-type': text(eventType), ':content-type': text('application/json'), ':message-type': text('event') },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** A failure after the stream began: an exception message, whose type is the stream union's member name. */
export function exceptionMessage(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: { ':exception-type': text(exceptionType), ':content-type': text('application/json'), ':message-type': text('exception') },
    body: fromUtf8(JSON.stringify({ message })),
  });
}
