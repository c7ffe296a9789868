import type { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { clientRequestIdOf } from '../routing/request-id';
import { toGatewayError } from './error-dialect';

/** The error and its causes, each with its stack where it has one. */
function describe(thrown: unknown): string {
  const parts: string[] = [];
  let current: unknown = thrown;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join('\ncaused by: ');
}

/** Every reply that becomes a 500 is logged with what caused it: the client's body says nothing. */
export function logIfInternal(logger: Logger, request: FastifyRequest, thrown: unknown): void {
  if (toGatewayError(thrown).code !== 'internal') return;
  const client = clientRequestIdOf(request.headers);
  const ids = client === undefined ? String(request.id) : `${String(request.id)}, client id ${JSON.stringify(client)}`;
  logger.error(`${request.method} ${request.url.split('?')[0]} answered 500 (request ${ids}): ${describe(thrown)}`);
}
