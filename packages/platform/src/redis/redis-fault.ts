import { GatewayError } from '@gateway/contracts';

/** What a caller is told to wait before trying again when Redis cannot serve its request now. */
export const REDIS_RETRY_AFTER_SECONDS = 1;

const FAULT_NAMES = new Set(['MaxRetriesPerRequestError']);
const FAULT_MESSAGES = [
  /^Connection is closed/,
  /^Stream isn't writeable/,
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE/,
  /^LOADING /,
  // Redis's own "try again shortly", which the wallet answers while it is rebuilt after a failover.
  /^TRYAGAIN /,
  /^Reached the max retries per request limit/,
];

/** A Redis client error that says Redis could not be reached in time (not a script's or a command's own error). */
export function isRedisFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (FAULT_NAMES.has(error.name)) return true;
  return FAULT_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** A Redis fault as the domain says it: 503 with Retry-After in every family's dialect. */
export function redisUnavailable(): GatewayError {
  return new GatewayError('unavailable', 'A store the gateway needs is unavailable; try again.', null, null, REDIS_RETRY_AFTER_SECONDS);
}
