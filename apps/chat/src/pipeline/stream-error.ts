import { GatewayError } from '@gateway/contracts';

/** The error an upstream stream event reports, in any of the three protocols' shapes (`error` as a string or an object). */
export function eventError(event: Record<string, unknown>): GatewayError | null {
  const error = event.error as { message?: unknown } | string | undefined;
  if (!error) return null;
  const message = typeof error === 'string' ? error : typeof error.message === 'string' ? error.message : 'The upstream stream reported an error.';
  return new GatewayError('upstream_error', message);
}

/** The error in an event's raw data; parsed only when the text names one. */
export function streamError(data: string): GatewayError | null {
  if (!data.includes('"error"')) return null;
  try {
    const value: unknown = JSON.parse(data);
    return value && typeof value === 'object' ? eventError(value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
