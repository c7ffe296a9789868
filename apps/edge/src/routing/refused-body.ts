import type { IncomingMessage } from 'node:http';

/** The most of a refused request's remaining body read and dropped before its connection is closed instead. */
export const MAX_DROPPED_BODY_BYTES = 16 * 1024 * 1024;

/**
 * A request refused before its body was read whole (a form over a limit, a body over the route's
 * limit) leaves the rest unsent or unread. Any reader (the multipart parser) is detached and the rest is
 * read and dropped, so a client still writing finishes and reads the answer on a connection that stays
 * usable, where closing at once would reset it under the client; past MAX_DROPPED_BODY_BYTES the
 * connection is closed. A client that never finishes is ended by the request timeout
 * (HTTP_REQUEST_TIMEOUT_SECONDS), like any slow body.
 */
export function dropRestOfBody(raw: IncomingMessage): void {
  if (raw.complete) return;
  raw.unpipe();
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > MAX_DROPPED_BODY_BYTES) raw.socket.destroy();
  });
  raw.resume();
}
