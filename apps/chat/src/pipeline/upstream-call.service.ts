import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import {
  assertIrUrls,
  compatibleErrorOf,
  crossedUpstreamError,
  executeWithFailover,
  isRetryableError,
  FIELD_FAMILY,
  sendAuthorized,
  UPSTREAM_CHAT,
  type SseEvent,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/providers';
import { endSpanWithError, gatewayMetrics, SpanKind, trace, traceContext, tracer, tracingOn } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import { chatUpstreamOf, eventsOf, isPassThrough, type ChatCall } from './chat-call';
import type { StreamFrames } from './chat-codec';
import { passThroughRequest } from './passthrough-request';
import { streamError } from './stream-error';

/** The GenAI semantic conventions' names for the upstream protocols. */
const GEN_AI_SYSTEM: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  'azure-openai': 'az.ai.openai',
  bedrock: 'aws.bedrock',
  vertex: 'gcp.vertex_ai',
};

function systemOf(channel: CatalogChannel): string {
  return GEN_AI_SYSTEM[channel.protocol] ?? channel.protocol;
}

/** Watches one request's upstream attempts: latency to headers, errors and failovers by channel, and with tracing on, each attempt's client span (GenAI attributes). */
class UpstreamAttempts {
  private previous: CatalogChannel | undefined;

  /** One attempt on `channel`; an attempt after another is a failover away from the one before. */
  async send(channel: CatalogChannel, send: () => Promise<UpstreamResponse>): Promise<UpstreamResponse> {
    if (this.previous) gatewayMetrics.upstreamFailovers.inc({ channel: this.previous.id });
    this.previous = channel;
    const system = systemOf(channel);
    const started = performance.now();
    const span = tracingOn()
      ? tracer().startSpan(`chat ${channel.upstreamModel}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.system': system,
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': channel.upstreamModel,
            'gateway.channel': channel.id,
            'server.address': new URL(channel.baseUrl).host,
          },
        })
      : undefined;
    try {
      const response = span ? await traceContext.with(trace.setSpan(traceContext.active(), span), send) : await send();
      gatewayMetrics.upstreamDuration.observe({ channel: channel.id, system }, (performance.now() - started) / 1000);
      if (response.status >= 400) gatewayMetrics.upstreamErrors.inc({ channel: channel.id, status: String(response.status) });
      if (span) {
        span.setAttribute('http.response.status_code', response.status);
        if (response.status >= 400) span.setStatus({ code: 2 });
        span.end();
      }
      return response;
    } catch (error) {
      gatewayMetrics.upstreamErrors.inc({ channel: channel.id, status: 'error' });
      if (span) endSpanWithError(span, error);
      throw error;
    }
  }
}

export interface Served {
  channel: CatalogChannel;
  response: UpstreamResponse;
}

/** An upstream's event stream; `first`, when read ahead, has arrived and is not an error: from here on, bytes may reach the client. */
export interface OpenedStream {
  channel: CatalogChannel;
  events: AsyncGenerator<SseEvent>;
  first?: SseEvent;
  destroy(): void;
}

/** What ends with a relayed stream: a failure is told to `fail` (which returns what to throw); `cancel` runs last, whatever happened. */
export interface StreamLifecycle {
  fail(error: unknown): unknown;
  cancel(): void | Promise<void>;
}

/** An upstream answer's event stream as it comes, nothing read ahead (a pass-through without first-event failover). */
export function eventStreamOf(channel: CatalogChannel, response: UpstreamResponse): OpenedStream {
  return { channel, events: eventsOf(channel, response), destroy: () => response.body.destroy() };
}

/** One header of an upstream answer (the first, when it came more than once). */
export function responseHeader(response: UpstreamResponse, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A refusal that stands for a rate limit or a spent quota, whatever status the vendor sent, counted against its channel. */
function countThrottle(channel: CatalogChannel, error: GatewayError): GatewayError {
  if (error.code === 'rate_limited') gatewayMetrics.upstreamThrottles.inc({ channel: channel.id });
  return error;
}

type Build = (channel: CatalogChannel) => UpstreamRequest;
export type Refusal = (status: number, text: string, channel: CatalogChannel, headers?: Record<string, string | string[] | undefined>) => GatewayError;

/** An OpenAI-compatible refusal in our terms (in the dialect of the channel's protocol), without the channel's key. */
export const openaiRefusal: Refusal = (status, text, channel, headers) =>
  compatibleErrorOf(channel.protocol)(status, text, { headers, secrets: [channel.apiKey], provider: channel.providerId });

/**
 * The one way the chat service calls an upstream: channels in order, the providers' failover (connection
 * errors, timeouts, 429 and 5xx move on), only status and headers awaited before a channel is chosen, so
 * nothing has reached the client when a retry happens. A stream is opened once its first event is in.
 */
@Injectable()
export class UpstreamCallService {
  constructor(@Inject(CHAT_ENV) private readonly env: ChatEnv) {}

  async open(channels: readonly CatalogChannel[], build: Build, signal: AbortSignal, refusal: Refusal = openaiRefusal): Promise<Served> {
    const attempts = new UpstreamAttempts();
    const { channel, response } = await executeWithFailover(
      channels,
      (ch) => attempts.send(ch, () => sendAuthorized(build(ch), ch, { signal, firstByteTimeoutMs: this.env.UPSTREAM_TIMEOUT_MS })),
      { signal, toError: (status, text, ch, headers) => countThrottle(ch, refusal(status, text, ch, headers)) },
    );
    return { channel, response };
  }

  /**
   * Opens channels in order until one produces a first event that is not an error. Streams that answer
   * 200 and then fail in their first event (or end at once) are retried on the remaining channels too,
   * since nothing has reached the client yet.
   */
  async openStream(channels: readonly CatalogChannel[], build: Build, signal: AbortSignal, refusal: Refusal = openaiRefusal): Promise<OpenedStream> {
    let remaining = channels;
    for (;;) {
      const { channel, response } = await this.open(remaining, build, signal, refusal);
      const events = eventsOf(channel, response);
      const rest = remaining.slice(remaining.indexOf(channel) + 1);
      let failure: GatewayError;
      try {
        const first = await events.next();
        const error = first.done ? null : streamError(first.value.data);
        if (!first.done && !error) return { channel, events, first: first.value, destroy: () => response.body.destroy() };
        failure = error ? countThrottle(channel, error) : new GatewayError('upstream_error', 'The upstream stream ended before sending anything.');
      } catch (error) {
        if (signal.aborted || !(error instanceof GatewayError)) throw error;
        failure = countThrottle(channel, error);
      }
      response.body.destroy();
      if (rest.length === 0 || !isRetryableError(failure)) throw failure;
      remaining = rest;
    }
  }

  /** A chat call's request: the client's body untouched on its family's own protocol, the IR encoded for any other. */
  request(call: ChatCall, channel: CatalogChannel): UpstreamRequest {
    const upstream = chatUpstreamOf(channel);
    if (isPassThrough(call.family, upstream)) return passThroughRequest(upstream, call.body, channel, call.stream);
    const ir = call.ir();
    assertIrUrls(ir);
    return UPSTREAM_CHAT[upstream].toRequest({ ...ir, stream: call.stream }, channel);
  }

  /** An upstream's refusal in its protocol's dialect; on a crossed path, told in the client's field names. */
  upstreamError(call: ChatCall, channel: CatalogChannel, status: number, text: string, headers?: Record<string, string | string[] | undefined>): GatewayError {
    const upstream = chatUpstreamOf(channel);
    const error = UPSTREAM_CHAT[upstream].fromError(status, text, { headers, secrets: [channel.apiKey], provider: channel.providerId });
    return isPassThrough(call.family, upstream) ? error : crossedUpstreamError(error, call.family, FIELD_FAMILY[upstream]);
  }
}

const encoder = new TextEncoder();

async function nextEvent(events: AsyncGenerator<SseEvent>): Promise<SseEvent | undefined> {
  const next = await events.next();
  return next.done ? undefined : next.value;
}

/**
 * The one stream relay: each upstream event goes out as the frames its codec writes, the moment it
 * arrives. The codec records usage (a chat call's through its metered stream) before the frames that
 * end the answer; a failure ends the stream with the error, and a client that leaves is counted in
 * `finally` (a chat call's `cancel`).
 */
export async function* relayStream(opened: OpenedStream, frames: StreamFrames, lifecycle: StreamLifecycle, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  try {
    let event = opened.first ?? (await nextEvent(opened.events));
    while (event) {
      // Most codecs answer at once: awaiting only a promise keeps a microtask off every event.
      const pushed = frames.push(event);
      const out = typeof pushed === 'string' ? pushed : await pushed;
      if (out !== '') yield encoder.encode(out);
      frames.sent?.();
      event = await nextEvent(opened.events);
    }
    const out = await frames.end();
    if (out !== '') yield encoder.encode(out);
  } catch (error) {
    // A client that went away is no failure: `finally` counts what it received.
    if (!signal.aborted) throw lifecycle.fail(error);
  } finally {
    opened.destroy();
    await lifecycle.cancel();
  }
}
