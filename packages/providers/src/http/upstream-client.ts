// The one place that talks HTTP to upstreams: a shared keep-alive undici Agent (a connection pool per
// origin), a first-byte deadline, an overall deadline, and cancellation by the caller's signal. Network
// failures become GatewayErrors without any URL, host or key in their message.
import type { Readable } from 'node:stream';
import { GatewayError } from '@gateway/contracts';
import { Agent, type Dispatcher, errors as undiciErrors, request } from 'undici';
import type { UpstreamRequest, UpstreamResponse } from '../provider.types';

export interface SendOptions {
  /** Aborting it cancels the call (and the body, if already flowing). */
  signal?: AbortSignal;
  /** Deadline for the status line and headers. */
  firstByteTimeoutMs?: number;
  /** Longest silence between body chunks once the answer has started. */
  idleTimeoutMs?: number;
  /** Deadline for the whole call, body included: for non-streamed calls; streams rely on the two above. */
  timeoutMs?: number;
}

const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 60_000;
const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

let sharedAgent: Agent | null = null;

function agent(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, connect: { timeout: 10_000 } });
  return sharedAgent;
}

/** Closes pooled connections (for graceful shutdown and test teardown). */
export async function closeUpstreamConnections(): Promise<void> {
  const current = sharedAgent;
  sharedAgent = null;
  if (current) await current.close();
}

function errorCode(error: unknown): string | undefined {
  const own = (error as { code?: unknown })?.code;
  if (typeof own === 'string') return own;
  const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof cause === 'string' ? cause : undefined;
}

/** A network-level failure as a GatewayError; never includes the URL. */
export function toNetworkError(error: unknown, deadlineMs: number | undefined): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new GatewayError('upstream_timeout', 'The upstream did not answer in time.');
  }
  if (error instanceof undiciErrors.ConnectTimeoutError) return new GatewayError('upstream_timeout', 'Connecting to the upstream timed out.');
  if ((error as { name?: string })?.name === 'TimeoutError') {
    return new GatewayError('upstream_timeout', `The upstream did not answer within ${deadlineMs ?? '?'} ms.`);
  }
  const code = errorCode(error);
  return new GatewayError('upstream_error', `Could not reach the upstream${code ? ` (${code})` : ''}.`);
}

export async function sendUpstream(req: UpstreamRequest, options: SendOptions = {}): Promise<UpstreamResponse> {
  const signals: AbortSignal[] = [];
  if (options.signal) signals.push(options.signal);
  const deadline = options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined;
  if (deadline) signals.push(deadline);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  if (options.signal?.aborted) throw new GatewayError('upstream_error', 'The upstream call was cancelled.');
  try {
    const response = await request(req.url, {
      dispatcher: agent(),
      method: req.method,
      headers: req.headers,
      body: req.body as Dispatcher.DispatchOptions['body'],
      signal,
      headersTimeout: options.firstByteTimeoutMs ?? options.timeoutMs ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS,
      bodyTimeout: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    });
    return { status: response.statusCode, headers: response.headers, body: response.body as unknown as Readable };
  } catch (error) {
    if (options.signal?.aborted) throw new GatewayError('upstream_error', 'The upstream call was cancelled.');
    if (deadline?.aborted) throw new GatewayError('upstream_timeout', `The upstream did not answer within ${options.timeoutMs} ms.`);
    throw toNetworkError(error, options.timeoutMs);
  }
}

/**
 * Reads a whole body into memory, up to `maxBytes` (the rest is dropped and the body destroyed). Event
 * listeners rather than async iteration: this runs once per upstream call, and an async iterator costs
 * a promise per chunk.
 */
export function readBodyBuffer(body: Readable, maxBytes = 1_000_000): Promise<Buffer> {
  if (body.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (body.destroyed) return Promise.reject(new GatewayError('upstream_error', 'The upstream body ended early.'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error) => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer | Uint8Array) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      if (size + buffer.length > maxBytes) {
        size += buffer.length;
        body.destroy();
        return settle();
      }
      size += buffer.length;
      chunks.push(buffer);
    };
    const onEnd = () => settle();
    const onError = (error: Error) => settle(error);
    // A body destroyed by its owner (an abort) ends without 'end': what arrived is all there is.
    const onClose = () => settle(body.readableEnded ? undefined : new GatewayError('upstream_error', 'The upstream body ended early.'));
    body.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

/** Reads a whole (small) body as text, e.g. an error answer. */
export async function readBodyText(body: Readable, maxBytes = 1_000_000): Promise<string> {
  return (await readBodyBuffer(body, maxBytes)).toString('utf8');
}

/** Reads and JSON-parses a body; a body that is not JSON is an upstream error. */
export async function readBodyJson(body: Readable, maxBytes = 256_000_000): Promise<unknown> {
  const text = await readBodyText(body, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new GatewayError('upstream_error', 'The upstream answered with a body that is not JSON.');
  }
}
