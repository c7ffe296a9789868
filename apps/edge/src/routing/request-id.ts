import type { FastifyReply } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Request ids. Every internal key (claim checks, billing holds, usage records, storage keys) derives
 * from the id the server generates for a request, so a client can never name or collide with another
 * request's state. The client's own `x-request-id` is kept only for correlation: validated, logged,
 * recorded with the usage, and echoed back as `x-client-request-id`.
 */

/** Printable ASCII, 1 to 128 characters; anything else is ignored rather than refused. */
const CLIENT_REQUEST_ID = /^[\x20-\x7e]{1,128}$/;

export function clientRequestIdOf(headers: IncomingHttpHeaders): string | undefined {
  const given = headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : undefined;
}

/** `x-request-id` is always the server's id; the client's, when valid, comes back beside it. */
export function setRequestIdHeaders(reply: FastifyReply): void {
  reply.header('x-request-id', String(reply.request.id));
  const client = clientRequestIdOf(reply.request.headers);
  if (client !== undefined) reply.header('x-client-request-id', client);
}
