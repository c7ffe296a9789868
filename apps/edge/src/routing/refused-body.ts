import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The most of a refused request's remaining body read and dropped before its connection is closed instead. */
export const MAX_DROPPED_BODY_BYTES = 16 * 1024 * 1024;

/** How long a connection that ends after the answer still reads what its client sends. */
export const LINGER_MS = 2000;

/**
 * When the answer ends the connection (the client asked for `connection: close`), Node destroys the
 * socket as soon as the answer is written, which resets it under a client still writing its body. This
 * socket ends instead: the answer and a FIN go out, and it closes once the client does or after LINGER_MS.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
    this.once('close', () => clearTimeout(timer));
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
