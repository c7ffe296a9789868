import { GatewayError, type Family } from '@gateway/contracts';
import { isRedisFault, redisUnavailable } from '@gateway/platform';
import { dscError, gencError, msgcError, musicError, nativeMediaError, oaicError, roomError, type DialectError } from './family-dialects';

export type { DialectError } from './family-dialects';

/** The one place a domain error becomes an HTTP status and body, in the dialect of the route's family. */
export function toDialectError(family: Family, error: GatewayError, requestId: string): DialectError {
  switch (family) {
    case 'oaic':
      return oaicError(error);
    case 'msgc':
      return msgcError(error);
    case 'genc':
      return gencError(error);
    case 'dsc':
      return dscError(error, requestId);
    case 'nativemedia':
      return nativeMediaError(error, requestId);
    case 'music':
      return musicError(error);
    case 'room':
      return roomError(error);
  }
}

const PREFIXES: ReadonlyArray<[string, Family]> = [
  ['/msgc', 'msgc'],
  ['/genc', 'genc'],
  ['/dsc', 'dsc'],
  ['/nativemedia', 'nativemedia'],
  ['/music', 'music'],
  ['/v1/chatroom', 'room'],
];

/** The family whose dialect a request to `url` gets when no route matched; oaic for everything else. */
export function familyOfPath(url: string): Family {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  for (const [prefix, family] of PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return family;
  }
  return 'oaic';
}

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/**
 * Any thrown value as a GatewayError. HTTP-layer failures (bad JSON, body too large, wrong content
 * type) keep their status; anything unexpected becomes a bare internal error that leaks nothing.
 */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (isRedisFault(error)) return redisUnavailable();
  const framework = (error ?? {}) as FrameworkError;
  const status = framework.statusCode;
  if (status === 413) return new GatewayError('payload_too_large', 'Request body is too large.');
  if (status === 415) return new GatewayError('invalid_request', `Unsupported content type: ${framework.message ?? ''}`.trim(), null, 415);
  if (status !== undefined && status >= 400 && status < 500) {
    const message = framework.code?.startsWith('FST_ERR_CTP') ? `Could not parse the request body: ${framework.message}` : (framework.message ?? 'Bad request');
    return new GatewayError('invalid_request', message, null, status === 400 ? null : status);
  }
  return new GatewayError('internal', 'Internal error');
}
