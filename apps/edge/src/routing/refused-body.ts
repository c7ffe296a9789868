import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { lingerThenClose, MAX_DROPPED_BODY_BYTES } from './linger';

/**
 * When the answer ends the connection (the client asked for `connection: close`, or the body was left
 * unread), Node destroys the socket as soon as the answer is written, which resets it under a client
 * still writing. This socket lingers instead (lingerThenClose).
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    lingerThenClose(this);
  };
}

/**
 * A request refused before its body was read whole (a form over a limit, a body over the route's
 * limit) leaves the rest unsent or unread. Any reader (the multipart parser) is detached and the rest is
 * read and dropped, so a client still writing finishes and reads the answer, where closing at once
 * would reset the connection under it; past MAX_DROPPED_BODY_BYTES the connection is closed. A client
 * that never finishes is ended by the request timeout (HTTP_REQUEST_TIMEOUT_SECONDS), like any slow body.
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
  lingerOnClose(raw.socket);
}

/**
 * Any answer sent before its request's body was read (a 401 from the guard, a 404, a refusal): when the
 * answer ends the connection, the socket lingers rather than resetting under a client still writing.
 */
export function installLingeringClose(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    if (!request.raw.complete) lingerOnClose(request.raw.socket);
    done(null, payload);
  });
}
