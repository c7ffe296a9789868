import type { SseEvent } from '@gateway/providers';
import type { MeteredStream } from '../usage/metered-stream';
import type { OpenedStream } from './upstream-call.service';

const encoder = new TextEncoder();

/** What a stream's codec writes for the client: the frames for each upstream event, then those that end the answer. */
export interface StreamFrames {
  push(event: SseEvent): string | Promise<string>;
  end(): string | Promise<string>;
  /** The last frames pushed were taken by the client. */
  sent?(): void;
}

/**
 * The one stream relay: each upstream event goes out as the frames its codec writes, the moment it
 * arrives. The codec records usage (through `metered`) before the frames that end the answer; a failure
 * after the first event ends the stream with the error, and a client that leaves is counted in `finally`.
 */
export async function* relayStream(opened: OpenedStream, frames: StreamFrames, metered: MeteredStream, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  try {
    let event: SseEvent | undefined = opened.first;
    while (event) {
      // Most codecs answer at once: awaiting only a promise keeps a microtask off every event.
      const pushed = frames.push(event);
      const out = typeof pushed === 'string' ? pushed : await pushed;
      if (out !== '') yield encoder.encode(out);
      frames.sent?.();
      const next: IteratorResult<SseEvent> = await opened.events.next();
      event = next.done ? undefined : next.value;
    }
    const out = await frames.end();
    if (out !== '') yield encoder.encode(out);
  } catch (error) {
    // A client that went away is no failure: `finally` counts what it received.
    if (!signal.aborted) throw metered.fail(error);
  } finally {
    opened.destroy();
    metered.cancel();
  }
}
