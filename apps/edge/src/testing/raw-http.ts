import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request through node:http, which (unlike fetch) sends repeated headers as given and
 * any Host header.
 */
export function rawRequest(baseUrl: string, method: string, path: string, headers: OutgoingHttpHeaders = {}, body?: string): Promise<RawReply> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface RawConnection {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Milliseconds from connect until the server closed the connection, or null if it is still open after `withinMs`. */
  closedWithin(withinMs: number): Promise<number | null>;
}

/** A bare TCP connection to the listener, to send partial requests or nothing at all. */
export function rawConnection(baseUrl: string): Promise<RawConnection> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    let data = '';
    let closedAt: number | null = null;
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () =>
      resolve({
        socket,
        received: () => data,
        closedWithin: (withinMs) =>
          new Promise((done) => {
            if (closedAt !== null) return done(closedAt - startedAt);
            const timer = setTimeout(() => {
              socket.destroy();
              done(null);
            }, withinMs);
            socket.once('close', () => {
              clearTimeout(timer);
              done((closedAt ?? Date.now()) - startedAt);
            });
          }),
      }),
    );
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('close', () => (closedAt = Date.now()));
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}
