import { GatewayError } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import type { ServerResponse } from 'node:http';
import { toDialectError } from '../errors/error-dialect';
import type { RouteRequest } from '../routing/route-request';
import { noteCacheOutcome } from './chat-relay.service';

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' };

/**
 * Relays a streamed reply as SSE, frame by frame as it arrives. Until the first frame arrives nothing is
 * written, so an early failure (bad model, all channels down) still becomes a normal error response with
 * its status. A client that goes away aborts the stream, which cancels the upstream.
 */
export async function relaySse(bus: NatsBus, subject: string, request: RouteRequest, payload: unknown): Promise<undefined> {
  const abort = new AbortController();
  const { reply } = request;
  const frames = bus.stream(subject, payload, {
    signal: abort.signal,
    trace: request.raw.traceContext ?? undefined,
    onNote: (note) => {
      request.raw.replyNote = note;
      noteCacheOutcome(request, note);
    },
  });
  const raw: ServerResponse = reply.raw;
  raw.on('close', () => {
    if (!raw.writableFinished) abort.abort();
  });
  const first = await frames.next();
  reply.hijack();
  // The head leaves with the first event, in one write (the first frame is already here to send).
  raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), ...SSE_HEADERS });
  try {
    if (!first.done && first.value.kind === 'data') {
      raw.write(first.value.data);
      request.raw.firstEventSeconds = reply.elapsedTime / 1000;
    }
    if (!first.done && first.value.kind !== 'end') {
      for await (const frame of frames) {
        if (frame.kind === 'data') raw.write(frame.data);
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) raw.write(errorEvent(error, request));
  } finally {
    if (!raw.writableEnded) raw.end();
  }
  return undefined;
}

/** A failure after the stream began: one SSE event in the route family's dialect, which the SDKs raise as an error. */
function errorEvent(error: unknown, request: RouteRequest): string {
  const gatewayError = error instanceof GatewayError ? error : new GatewayError('internal', 'Internal error');
  const data = `data: ${JSON.stringify(toDialectError(request.route.family, gatewayError, request.requestId).body)}\n\n`;
  return request.route.family === 'msgc' ? `event: error\n${data}` : data;
}
