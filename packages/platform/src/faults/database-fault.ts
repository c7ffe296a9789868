import { GatewayError } from '@gateway/contracts';

/** What a caller is told to wait before trying again while PostgreSQL cannot serve its request. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Prisma's codes for a database it cannot reach or wait for: unreachable (P1001), timed out (P1002,
 * P1008), connection closed (P1017), no pooled connection in time (P2024), no transaction in time (P2028).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028']);
/**
 * PostgreSQL's own: the server shutting down or starting (57P01–57P03), connection failures (08xxx), no
 * slot (53300), and a write on a server that is read-only (25006): a primary demoted in a switchover, still
 * holding the connection until the pool opens one to the new primary.
 */
const SQLSTATES = /^(57P0[1-3]|08\d{3}|53300|25006)$/;
/** The pg driver adapter's names for the same faults. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);
const MESSAGES = [/^Connection terminated/, /^Client has encountered a connection error/, /Can't reach database server/];

type AdapterCause = { kind?: unknown; originalCode?: unknown };

/** What the pg driver adapter said, thrown as it is (a model query) or wrapped by Prisma (a raw query). */
function adapterCauseOf(error: Error): AdapterCause | undefined {
  if (error.name === 'DriverAdapterError') return (error as { cause?: AdapterCause }).cause;
  return (error as { meta?: { driverAdapterError?: { cause?: AdapterCause } } }).meta?.driverAdapterError?.cause;
}

/** An error that says PostgreSQL could not be reached or waited for (not a statement's own error). */
export function isDatabaseFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'PrismaClientInitializationError') return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (PRISMA_CODES.has(code) || SQLSTATES.test(code) || SOCKET_CODES.has(code))) return true;
  const cause = adapterCauseOf(error);
  if (cause && (ADAPTER_KINDS.has(cause.kind as string) || (typeof cause.originalCode === 'string' && SQLSTATES.test(cause.originalCode)))) return true;
  return MESSAGES.some((pattern) => pattern.test(error.message));
}

/** A database fault as the domain says it: 503 with Retry-After in every family's dialect. */
export function databaseUnavailable(): GatewayError {
  return new GatewayError('unavailable', 'The gateway cannot reach its database right now; try again.', null, null, DATABASE_RETRY_AFTER_SECONDS);
}
