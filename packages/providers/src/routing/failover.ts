// Tries a model's channels in order until one answers 2xx. A connection error, a timeout, a 429 or a 5xx
// moves on to the next channel, and so do 401/403/404/408, which describe that channel (its key, its model
// name), not the client's request; this happens before any byte of the answer is passed on, because the
// winning response is returned unread. Any other non-2xx (a 400 would fail the same way everywhere) stops
// at once. When every channel fails, the last error is thrown: the call never hangs past the per-attempt
// deadlines the attempt function applies.
import { GatewayError } from '@gateway/contracts';
import { readBodyText } from '../http/upstream-client';
import type { ChannelTarget, UpstreamResponse } from '../provider.types';

export interface FailoverAttempt {
  channelId: string;
  status?: number;
  error?: string;
  ms: number;
}

export interface FailoverResult<C extends ChannelTarget = ChannelTarget> {
  channel: C;
  response: UpstreamResponse;
  attempts: FailoverAttempt[];
}

export interface FailoverOptions<C extends ChannelTarget = ChannelTarget> {
  /** Stops trying further channels once aborted. */
  signal?: AbortSignal;
  /** Turns a non-2xx answer into a GatewayError (default: a generic upstream error with the status). */
  toError?: (status: number, bodyText: string, channel: C, headers: UpstreamResponse['headers']) => GatewayError;
}

/** Failures worth another channel: the next upstream may well succeed. */
const CHANNEL_FAULTS = new Set([401, 403, 404, 408, 429]);

export function isRetryableStatus(status: number): boolean {
  return CHANNEL_FAULTS.has(status) || status >= 500;
}

export function isRetryableError(error: GatewayError): boolean {
  return error.code === 'upstream_error' || error.code === 'upstream_timeout' || error.code === 'unavailable' || error.code === 'rate_limited';
}

/** Thrown when every channel failed, carrying what each attempt saw. */
export class FailoverError extends GatewayError {
  constructor(
    last: GatewayError,
    readonly attempts: FailoverAttempt[],
  ) {
    super(last.code, last.message, last.param, last.upstreamStatus, last.retryAfterSeconds);
  }
}

function defaultError(status: number): GatewayError {
  return new GatewayError('upstream_error', `The upstream answered HTTP ${status}.`, null, status);
}

export async function executeWithFailover<C extends ChannelTarget>(
  channels: readonly C[],
  attempt: (channel: C) => Promise<UpstreamResponse>,
  options: FailoverOptions<C> = {},
): Promise<FailoverResult<C>> {
  const attempts: FailoverAttempt[] = [];
  let last: GatewayError | undefined;
  for (const channel of channels) {
    if (options.signal?.aborted) throw new FailoverError(new GatewayError('upstream_error', 'The upstream call was cancelled.'), attempts);
    const started = performance.now();
    const elapsed = (): number => Math.round((performance.now() - started) * 1000) / 1000;
    let response: UpstreamResponse;
    try {
      response = await attempt(channel);
    } catch (error) {
      const failure = error instanceof GatewayError ? error : new GatewayError('upstream_error', 'The upstream call failed.');
      attempts.push({ channelId: channel.id, error: failure.code, ms: elapsed() });
      if (!isRetryableError(failure)) throw new FailoverError(failure, attempts);
      last = failure;
      continue;
    }
    if (response.status >= 200 && response.status < 300) {
      attempts.push({ channelId: channel.id, status: response.status, ms: elapsed() });
      return { channel, response, attempts };
    }
    const bodyText = await readBodyText(response.body).catch(() => '');
    attempts.push({ channelId: channel.id, status: response.status, ms: elapsed() });
    const failure = options.toError?.(response.status, bodyText, channel, response.headers) ?? defaultError(response.status);
    // A vendor may answer a channel fault with another status (Bedrock's spent quota is a 400): what it stands for counts too.
    if (!isRetryableStatus(response.status) && !isRetryableStatus(failure.upstreamStatus ?? response.status)) throw new FailoverError(failure, attempts);
    last = failure;
  }
  throw new FailoverError(last ?? new GatewayError('unavailable', 'No upstream channel is configured for this model.'), attempts);
}
