import { GatewayError } from '@gateway/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { lingerThenClose } from '../routing/linger';
import { lingerOnClose } from '../routing/refused-body';
import { familyOfPath, toDialectError } from './error-dialect';
import { sendError } from './error-reply';

/** Node's default limit on the request line and headers together (--max-http-header-size). */
const HEADER_LIMIT_TEXT = '16 KB';

interface ClientError extends Error {
  code?: string;
  /** The bytes the HTTP parser was reading when it failed (a Buffer), when it got that far. */
  rawPacket?: unknown;
}

/** The head of the parser's buffer, when it has one. */
function headOf(rawPacket: unknown): string | null {
  return Buffer.isBuffer(rawPacket) ? rawPacket.subarray(0, 16 * 1024).toString('latin1') : null;
}

/** Whether the buffer holds a whole first line (a too-long URL never ends inside the limit). */
function firstLineEnds(head: string | null): boolean {
  return head !== null && head.includes('\r\n');
}

/** The path's start, from a request line (`POST /msgc/v1/…`) even one cut short, to pick the dialect; `/` otherwise. */
function pathOf(head: string | null): string {
  return (head === null ? null : /^[A-Z]+ (\/[^\s?#]{0,64})/.exec(head)?.[1]) ?? '/';
}

function errorOf(error: ClientError, head: string | null): GatewayError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      // A first line that never ended inside the limit is a URL too long, not headers too large.
      return head !== null && !firstLineEnds(head)
        ? new GatewayError('invalid_request', `The request URL is too long: the request line and headers may take at most ${HEADER_LIMIT_TEXT}.`, null, 414)
        : new GatewayError(
            'invalid_request',
            `The request headers are too large: the request line and headers may take at most ${HEADER_LIMIT_TEXT}.`,
            null,
            431,
          );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new GatewayError('invalid_request', 'The request was not received in time.', null, 408);
    default:
      return GatewayError.invalid('The request is not valid HTTP/1.1.');
  }
}

/** Connections already answered: the parser reports its error again for every later chunk. */
const answered = new WeakSet<Socket>();

/**
 * Failures of Node's HTTP parser, before Fastify sees a request: answered in the dialect of the path
 * when the request line was read (never echoing it), on a connection that then closes.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  const head = headOf(error.rawPacket);
  const { status, body } = toDialectError(familyOfPath(pathOf(head)), errorOf(error, head), randomUUID());
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  // The parser has let go of the socket: what the client still sends flows here and is dropped.
  socket.resume();
  lingerThenClose(socket);
}

interface FrameworkError extends Error {
  code?: string;
}

/**
 * Fastify's own refusals before routing (a bad URL, an over-long path parameter) as the domain says them.
 * They come before the hooks that let a connection with an unread body linger, so the socket is set to
 * linger here.
 */
export function frameworkRefusal(error: FrameworkError, request: FastifyRequest): GatewayError | FrameworkError {
  if (!request.raw.complete) lingerOnClose(request.raw.socket);
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return GatewayError.invalid('The request URL is not valid: it has a malformed percent-encoding.');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new GatewayError('invalid_request', 'The request URL is too long: a path segment exceeds 100 characters.', null, 414);
    default:
      return error;
  }
}

/** Fastify's own refusals before routing, in the path's dialect. */
export function answerFrameworkError(error: FrameworkError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, familyOfPath(request.url), frameworkRefusal(error, request));
}
