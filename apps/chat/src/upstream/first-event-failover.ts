import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import { isRetryableError, parseSse, type SseEvent, type UpstreamResponse } from '@gateway/providers';

/** A stream whose first event has arrived and is not an error: from here on, bytes may reach the client. */
export interface OpenedStream {
  channel: CatalogChannel;
  events: AsyncGenerator<SseEvent>;
  first: SseEvent;
  destroy(): void;
}

/**
 * Opens channels in order until one produces a first event that is not an error. `open` is the
 * status-and-headers failover over the channels it is given; this adds the streams that answer 200 and
 * then fail in their first event (or end at once), which are retried on the remaining channels too,
 * since nothing has reached the client yet.
 */
export async function openFirstEvent(
  channels: readonly CatalogChannel[],
  open: (channels: readonly CatalogChannel[]) => Promise<{ channel: CatalogChannel; response: UpstreamResponse }>,
  errorOf: (data: string) => GatewayError | null,
  signal: AbortSignal,
): Promise<OpenedStream> {
  let remaining = channels;
  for (;;) {
    const { channel, response } = await open(remaining);
    const events = parseSse(response.body);
    const rest = remaining.slice(remaining.indexOf(channel) + 1);
    let failure: GatewayError;
    try {
      const first = await events.next();
      const error = first.done ? null : errorOf(first.value.data);
      if (!first.done && !error) return { channel, events, first: first.value, destroy: () => response.body.destroy() };
      failure = error ?? new GatewayError('upstream_error', 'The upstream stream ended before sending anything.');
    } catch (error) {
      if (signal.aborted || !(error instanceof GatewayError)) throw error;
      failure = error;
    }
    response.body.destroy();
    if (rest.length === 0 || !isRetryableError(failure)) throw failure;
    remaining = rest;
  }
}
