import { httpStatusOf, type ConsoleErrorBody } from '@gateway/contracts';
import type { FastifyReply } from 'fastify';
import { toGatewayError } from '../errors/error-dialect';

/** Console API errors: `{error:{code,message,param,retryAfterSeconds}}`, the status from the code, Retry-After when known. */
export function sendConsoleError(reply: FastifyReply, thrown: unknown): FastifyReply {
  const error = toGatewayError(thrown);
  const body: ConsoleErrorBody = { error: { code: error.code, message: error.message, param: error.param, retryAfterSeconds: error.retryAfterSeconds } };
  if (error.retryAfterSeconds !== null) reply.header('retry-after', String(error.retryAfterSeconds));
  reply.request.errorCode = error.code;
  return reply.code(httpStatusOf(error)).header('cache-control', 'no-store').send(body);
}
