import type { Socket } from 'node:net';

/** The most of a refused request's remaining body read and dropped before its connection is closed instead. */
export const MAX_DROPPED_BODY_BYTES = 16 * 1024 * 1024;

/** Silence from the client after which a lingering connection closes. */
export const LINGER_IDLE_MS = 2000;

/** The longest a connection lingers, however steadily its client writes. */
export const LINGER_MAX_MS = 30_000;

/**
 * Ends a connection whose client may still be writing its body: the answer and a FIN go out, and what
 * still arrives is read and dropped while the client keeps sending, so a client writing a large body
 * slowly finishes and reads the answer where closing would reset the connection under it. The socket
 * closes once the client does, after LINGER_IDLE_MS without a byte, past MAX_DROPPED_BODY_BYTES, or
 * after LINGER_MAX_MS in all.
 */
export function lingerThenClose(socket: Socket): void {
  socket.end();
  const started = Date.now();
  const firstByte = socket.bytesRead;
  let seen = firstByte;
  const check = () => {
    const read = socket.bytesRead;
    if (read === seen || read - firstByte > MAX_DROPPED_BODY_BYTES || Date.now() - started >= LINGER_MAX_MS) {
      socket.destroy();
      return;
    }
    seen = read;
    timer = setTimeout(check, LINGER_IDLE_MS).unref();
  };
  let timer = setTimeout(check, LINGER_IDLE_MS).unref();
  socket.once('close', () => clearTimeout(timer));
}
