import type { Family } from '@gateway/contracts';
import type { FastifyReply } from 'fastify';
import { setRequestIdHeaders } from '../routing/request-id';
import { toDialectError, toGatewayError } from './error-dialect';

/** Sends any thrown value as an error in `family`'s dialect, with Retry-After when the error carries one. */
export function sendError(reply: FastifyReply, family: Family, thrown: unknown): FastifyReply {
  const error = toGatewayError(thrown);
  const requestId = String(reply.request.id);
  const { status, body } = toDialectError(family, error, requestId);
  reply.request.errorCode = error.code;
  reply.code(status);
  setRequestIdHeaders(reply);
  if (error.retryAfterSeconds !== null) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.send(body);
}
