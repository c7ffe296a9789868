import type { CatalogChannel } from '@gateway/contracts';
import {
  estimateTextTokens,
  FAMILY_CHAT,
  SSE_DONE,
  UPSTREAM_CHAT,
  type ChatUpstream,
  type DecodeContext,
  type IrStreamEvent,
  type IrUsage,
  type SseEvent,
} from '@gateway/providers';
import type { Tokens } from '../usage/usage-meter';
import { chatUpstreamOf, estimatedInputTokens, fallbackId, isPassThrough, type ChatCall } from './chat-call';
import { passThroughAnswer, streamModelRewriter } from './passthrough-request';
import type { CodecOf, StreamFrames } from './chat-codec';
import type { UpstreamCallService } from './upstream-call.service';

function decodeContext(call: ChatCall, protocol: ChatUpstream): DecodeContext {
  let estimate: number | undefined;
  let id: string | undefined;
  const codec = UPSTREAM_CHAT[protocol];
  return {
    model: call.modelId,
    // Drawn only for an upstream that names no id: drawn for every request, it showed in chat's CPU profile.
    get fallbackId() {
      return (id ??= fallbackId(call.family));
    },
    get estimatedInputTokens() {
      return (estimate ??= estimatedInputTokens(call));
    },
    // A pass-through request is the client's own: any tool in its answer is one the client declared.
    structuredOutputTool: codec.structuredOutputTool && !isPassThrough(call.family, protocol) ? codec.structuredOutputTool(call.ir()) : null,
  };
}

/** Usage as metered: reasoning is inside the output count, cache reads and writes inside the prompt count. */
function tokensOf(usage: IrUsage): Tokens {
  return { prompt: usage.inputTokens, completion: usage.outputTokens, cached: usage.cacheReadTokens, cacheWrite: usage.cacheWriteTokens };
}

/** What an IR event adds to the answer, for counting what reached a client that left early. */
function producedText(event: IrStreamEvent): string {
  if (event.type === 'text_delta' || event.type === 'reasoning_delta') return event.text;
  if (event.type === 'tool_call_delta') return event.arguments;
  if (event.type === 'tool_call_start') return event.name;
  return '';
}

function frame(message: SseEvent, data: string): string {
  return message.event ? `event: ${message.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

/**
 * A chat call's whole answer in its family's shape: decoded into the IR (which yields its usage) and
 * written for the family, or, on the family's own protocol, the upstream's answer with the public model.
 */
function chatAnswer(call: ChatCall, channel: CatalogChannel, json: unknown): Record<string, unknown> {
  const protocol = chatUpstreamOf(channel);
  const ir = UPSTREAM_CHAT[protocol].fromResponse(json, decodeContext(call, protocol));
  const answer = isPassThrough(call.family, protocol)
    ? passThroughAnswer(call.family, json, call.modelId)
    : (FAMILY_CHAT[call.family].toResponse(ir) as Record<string, unknown>);
  call.metered.meter.tokens = tokensOf(ir.usage);
  return answer;
}

/**
 * A chat call's stream in its family's shape: each upstream event decoded into the IR and encoded for
 * the family, or, on the family's own protocol, relayed as it came with only the model renamed. Usage
 * is recorded as soon as the upstream reports it, before the frames that end the answer.
 */
function chatStreamFrames(call: ChatCall, channel: CatalogChannel): StreamFrames {
  const protocol = chatUpstreamOf(channel);
  const passThrough = isPassThrough(call.family, protocol);
  const context = decodeContext(call, protocol);
  const decoder = UPSTREAM_CHAT[protocol].streamDecoder(context);
  const familyEncoder = FAMILY_CHAT[call.family].streamEncoder(context.fallbackId, call.modelId);
  const rewrite = streamModelRewriter(call.family, call.modelId);
  let produced = '';
  let usage: IrUsage | null = null;
  const metered = call.metered.measureWith(() => ({
    ...(usage ? tokensOf(usage) : {}),
    prompt: usage?.inputTokens ?? context.estimatedInputTokens,
    completion: Math.max(usage?.outputTokens ?? 0, estimateTextTokens(produced)),
  }));
  const emit = (events: IrStreamEvent[], raw: string): string => {
    let out = raw;
    for (const event of events) {
      produced += producedText(event);
      if (event.type === 'finish') usage = event.usage;
      if (!passThrough) out += familyEncoder.push(event);
    }
    if (usage && !metered.done) metered.succeed();
    return out;
  };
  return {
    push: (message) => emit(decoder.push(message), passThrough ? frame(message, rewrite(message.data)) : ''),
    end: () => emit(decoder.end(), '') + (passThrough ? (call.family === 'oaic' ? SSE_DONE : '') : familyEncoder.end()),
  };
}

/**
 * A chat call of any family against any chat protocol: the body as sent on the family's own protocol,
 * the IR encoded for any other (the request and refusals are the upstream call's, per protocol).
 */
export function familyChatCodec(upstream: UpstreamCallService): CodecOf<ChatCall> {
  return (call) => ({
    request: (channel) => upstream.request(call, channel),
    refusal: (status, text, channel, headers) => upstream.upstreamError(call, channel, status, text, headers),
    answer: (json, channel) => chatAnswer(call, channel, json),
    frames: (channel) => chatStreamFrames(call, channel),
  });
}
