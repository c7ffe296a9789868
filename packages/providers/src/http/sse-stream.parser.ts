// Reading any upstream's SSE body as raw events, for relaying with the least work and for each vendor's
// stream decoder.
import type { Readable } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  event: string | undefined;
  data: string;
}

/** Every SSE event of `body` as it arrives; ends at the end of the body or at `data: [DONE]`. */
export async function* parseSse(body: Readable | AsyncIterable<Uint8Array | string>): AsyncGenerator<SseEvent> {
  const queue: SseEvent[] = [];
  const parser = createParser({ onEvent: (message: EventSourceMessage) => queue.push({ event: message.event, data: message.data }) });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (next.data === '[DONE]') return;
      yield next;
    }
  }
  parser.feed(decoder.decode());
  for (const rest of queue) if (rest.data !== '[DONE]') yield rest;
}
