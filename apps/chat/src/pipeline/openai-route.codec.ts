import {
  GatewayError,
  type CatalogChannel,
  type ChatCompletionRequest,
  type TenantCaller,
  type CompletionRequest,
  type ResponseCreateRequest,
} from '@gateway/contracts';
import { extractUsage, fromUpstream, toCompatibleUpstream, type SseEvent, type TokenUsage } from '@gateway/providers';
import type { ResponsesService } from '../responses/responses.service';
import type { MeteredStream } from '../usage/metered-stream';
import { eventError } from './stream-error';
import { openaiRefusal } from './upstream-call.service';
import { deltaText, estimateTokens, isFinalEvent, publicIdRewriter, publicModelRewriter } from './stream-delta';
import type { CodecOf, StreamFrames } from './chat-codec';

/** An oaic text request (chat, completions or responses); narrowing `op` narrows `body`. */
export type OaicRouteCall = (
  { op: 'chat'; body: ChatCompletionRequest } | { op: 'completions'; body: CompletionRequest } | { op: 'responses'; body: ResponseCreateRequest }
) & { caller: TenantCaller; modelId: string; channels: CatalogChannel[]; stream?: boolean; metered: MeteredStream };

const DONE = 'data: [DONE]\n\n';

function parseEvent(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What the request sends as its input, for an estimate when the upstream reports no usage. */
function promptOf(call: OaicRouteCall): unknown {
  switch (call.op) {
    case 'chat':
      return call.body.messages;
    case 'completions':
      return call.body.prompt;
    case 'responses':
      return call.body.input;
  }
}

/**
 * An oaic stream on the OpenAI protocol, relayed event by event with only the model (and a response's id)
 * renamed. A stream that ends before its final event is cut; a response is stored before the client sees
 * its end, and usage is recorded before `[DONE]`. On cancellation, what reached the client counts.
 */
function oaicStreamFrames(call: OaicRouteCall, channel: CatalogChannel, responses: ResponsesService): StreamFrames {
  const { op } = call;
  const publicModel = publicModelRewriter(channel.upstreamModel, call.modelId);
  // A streamed response is stored like a unary one: under a gateway id that every event carries.
  let publicId = (data: string) => data;
  let upstreamId: string | null = null;
  let finalResponse: (Record<string, unknown> & { id: string }) | null = null;
  let delivered = '';
  let pending = '';
  let usage: TokenUsage | null = null;
  let complete = false;
  const metered = call.metered.measureWith(() => ({
    prompt: usage?.promptTokens ?? estimateTokens(JSON.stringify(promptOf(call))),
    completion: Math.max(usage?.completionTokens ?? 0, estimateTokens(delivered)),
    cached: usage?.cachedTokens,
  }));
  return {
    push(event: SseEvent): string {
      const json = parseEvent(event.data);
      if (json) {
        const error = eventError(json);
        if (error) throw error;
        // Most chunks carry no usage; skip the parse (and its failure path) for them.
        if (json.usage || json.response) usage = extractUsage(json) ?? usage;
        complete ||= isFinalEvent(op, json);
        const responseId = op === 'responses' ? (json.response as { id?: unknown } | undefined)?.id : undefined;
        if (typeof responseId === 'string' && upstreamId === null) {
          publicId = publicIdRewriter(responseId, responses.newId());
          upstreamId = responseId;
        }
      }
      const data = publicId(publicModel(event.data));
      // A response cut short by its cap is as retrievable as a completed one (OpenAI stores both).
      if (op === 'responses' && (json?.type === 'response.completed' || json?.type === 'response.incomplete'))
        finalResponse = (JSON.parse(data) as { response: Record<string, unknown> & { id: string } }).response;
      pending = json ? deltaText(op, json) : '';
      return event.event ? `event: ${event.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
    },
    sent() {
      delivered += pending;
      pending = '';
    },
    async end(): Promise<string> {
      if (!complete) throw new GatewayError('upstream_error', 'The upstream stream ended before the answer was complete.');
      if (finalResponse) await responses.save(call.caller.tenantId, finalResponse, { upstreamId, channelId: channel.id });
      metered.succeed();
      return op === 'responses' ? '' : DONE;
    },
  };
}

/** A whole oaic answer with the public model, its usage (the upstream's count, else an estimate of the input) on the meter; a response stored under a gateway id. */
async function oaicAnswer(call: OaicRouteCall, json: unknown, channel: CatalogChannel, responses: ResponsesService): Promise<Record<string, unknown>> {
  const answer = fromUpstream(call.op, json, call.modelId);
  const usage = extractUsage(answer);
  call.metered.meter.tokens = usage
    ? { prompt: usage.promptTokens, completion: usage.completionTokens, cached: usage.cachedTokens }
    : { prompt: estimateTokens(JSON.stringify(call.op === 'responses' ? (call.body.input ?? '') : '')), completion: 0 };
  return call.op === 'responses' ? responses.store(call.caller.tenantId, answer, channel.id) : answer;
}

/** An oaic chat, completions or responses request on OpenAI-protocol channels: its own route upstream, the body as sent. */
export function openaiRouteCodec(responses: ResponsesService): CodecOf<OaicRouteCall> {
  return (call) => ({
    request: (channel) => toCompatibleUpstream(call.op, call.body, channel, { stream: call.stream === true }),
    refusal: openaiRefusal,
    answer: (json, channel) => oaicAnswer(call, json, channel, responses),
    frames: (channel) => oaicStreamFrames(call, channel, responses),
  });
}
