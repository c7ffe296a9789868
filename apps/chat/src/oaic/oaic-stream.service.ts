import { GatewayError } from '@gateway/contracts';
import { extractUsage, toUpstream, type SseEvent, type TokenUsage } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ResponsesService } from '../responses/responses.service';
import type { PreparedCall } from './oaic-request.service';
import { deltaText, estimateTokens, isFinalEvent, publicIdRewriter, publicModelRewriter } from './stream-delta';
import { openFirstEvent, type OpenedStream } from '../upstream/first-event-failover';
import { UpstreamCallService } from './upstream-call.service';

type StreamCall = PreparedCall<'chat' | 'completions' | 'responses'>;

const encoder = new TextEncoder();
const DONE = encoder.encode('data: [DONE]\n\n');

function parseEvent(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What the request sends as its input, for an estimate when the upstream reports no usage. */
function promptOf(call: StreamCall): unknown {
  switch (call.op) {
    case 'chat':
      return call.body.messages;
    case 'completions':
      return call.body.prompt;
    case 'responses':
      return call.body.input;
  }
}

function errorOf(event: Record<string, unknown>): GatewayError | null {
  const error = event.error as { message?: unknown } | string | undefined;
  if (!error) return null;
  const message = typeof error === 'string' ? error : typeof error.message === 'string' ? error.message : 'The upstream stream reported an error.';
  return new GatewayError('upstream_error', message);
}

/**
 * Streamed oaic operations: each upstream SSE event is relayed as one NATS frame the moment it arrives.
 * Failover covers everything before the first event; after that a failure ends the stream with an
 * error event. Usage is recorded (and acknowledged) before `[DONE]`, and on cancellation counts what
 * reached the client.
 */
@Injectable()
export class OaicStreamService {
  constructor(
    private readonly upstream: UpstreamCallService,
    private readonly responses: ResponsesService,
  ) {}

  async open(call: StreamCall, signal: AbortSignal): Promise<AsyncGenerator<Uint8Array>> {
    const stream = await this.firstEvent(call, signal);
    call.metered.meter.channelId = stream.channel.id;
    return this.relay(call, stream, signal);
  }

  /** Opens channels in order until one produces its first event. */
  private firstEvent(call: StreamCall, signal: AbortSignal): Promise<OpenedStream> {
    return openFirstEvent(
      call.channels,
      (channels) => this.upstream.open(channels, (ch) => toUpstream(call.op, call.body, ch, { stream: true }), signal),
      (data) => errorOf(parseEvent(data) ?? {}),
      signal,
    );
  }

  private async *relay(call: StreamCall, stream: OpenedStream, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    const { op } = call;
    const publicModel = publicModelRewriter(stream.channel.upstreamModel, call.modelId);
    // A streamed response is stored like a unary one: under a gateway id that every event carries.
    let publicId = (data: string) => data;
    let upstreamId: string | null = null;
    let finalResponse: (Record<string, unknown> & { id: string }) | null = null;
    const rewrite = (data: string) => publicId(publicModel(data));
    let delivered = '';
    let usage: TokenUsage | null = null;
    let complete = false;
    const metered = call.metered.measureWith(() => ({
      prompt: usage?.promptTokens ?? estimateTokens(JSON.stringify(promptOf(call))),
      completion: Math.max(usage?.completionTokens ?? 0, estimateTokens(delivered)),
      cached: usage?.cachedTokens,
    }));
    try {
      let event: SseEvent | undefined = stream.first;
      while (event) {
        const json = parseEvent(event.data);
        if (json) {
          const error = errorOf(json);
          if (error) throw error;
          // Most chunks carry no usage; skip the parse (and its failure path) for them.
          if (json.usage || json.response) usage = extractUsage(json) ?? usage;
          complete ||= isFinalEvent(op, json);
          const responseId = op === 'responses' ? (json.response as { id?: unknown } | undefined)?.id : undefined;
          if (typeof responseId === 'string' && upstreamId === null) {
            publicId = publicIdRewriter(responseId, this.responses.newId());
            upstreamId = responseId;
          }
        }
        const data = rewrite(event.data);
        // A response cut short by its cap is as retrievable as a completed one (OpenAI stores both).
        if (op === 'responses' && (json?.type === 'response.completed' || json?.type === 'response.incomplete'))
          finalResponse = (JSON.parse(data) as { response: Record<string, unknown> & { id: string } }).response;
        yield encoder.encode(event.event ? `event: ${event.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`);
        if (json) delivered += deltaText(op, json);
        const next: IteratorResult<SseEvent> = await stream.events.next();
        event = next.done ? undefined : next.value;
      }
      if (!complete) throw new GatewayError('upstream_error', 'The upstream stream ended before the answer was complete.');
      if (finalResponse) await this.responses.save(call.caller.tenantId, finalResponse, { upstreamId, channelId: stream.channel.id });
      metered.succeed();
      if (op !== 'responses') yield DONE;
    } catch (error) {
      // A client that went away is no failure: `finally` counts what it received.
      if (!signal.aborted) throw metered.fail(error);
    } finally {
      stream.destroy();
      metered.cancel();
    }
  }
}
