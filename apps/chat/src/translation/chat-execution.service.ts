import {
  SSE_DONE,
  estimateTextTokens,
  FAMILY_CHAT,
  readBodyJson,
  UPSTREAM_CHAT,
  type DecodeContext,
  type IrStreamEvent,
  type ChatProtocol,
  type IrUsage,
  type SseEvent,
} from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { chatProtocolOf, estimatedInputTokens, fallbackId, isPassThrough, type ChatCall } from './chat-call';
import { type OpenedStream } from '../upstream/first-event-failover';
import { ChatUpstreamService } from './chat-upstream.service';
import { passThroughAnswer, streamModelRewriter } from './passthrough-request';
import type { Tokens } from '../usage/usage-meter';

const encoder = new TextEncoder();

function decodeContext(call: ChatCall, protocol: ChatProtocol): DecodeContext {
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

/**
 * Runs a chat call of any family against any chat protocol. Each upstream answer is decoded into the IR
 * (which also yields its usage) and written in the family's format; when the protocol is the family's
 * own, the upstream's bytes go out as they came, only the model renamed. Streams go event by event,
 * with usage recorded durably before the client sees the end.
 */
@Injectable()
export class ChatExecutionService {
  constructor(private readonly upstream: ChatUpstreamService) {}

  execute(call: ChatCall, signal: AbortSignal): Promise<Record<string, unknown> | AsyncGenerator<Uint8Array>> {
    return call.stream ? this.stream(call, signal) : this.unary(call, signal);
  }

  async unary(call: ChatCall, signal: AbortSignal): Promise<Record<string, unknown>> {
    const { channel, response } = await this.upstream.open(call, call.channels, signal);
    call.metered.meter.channelId = channel.id;
    const protocol = chatProtocolOf(channel);
    const json = await readBodyJson(response.body);
    const ir = UPSTREAM_CHAT[protocol].fromResponse(json, decodeContext(call, protocol));
    const answer = isPassThrough(call.family, protocol)
      ? passThroughAnswer(call.family, json, call.modelId)
      : (FAMILY_CHAT[call.family].toResponse(ir) as Record<string, unknown>);
    call.metered.meter.tokens = tokensOf(ir.usage);
    call.metered.succeed();
    return answer;
  }

  async stream(call: ChatCall, signal: AbortSignal): Promise<AsyncGenerator<Uint8Array>> {
    const opened = await this.upstream.openStream(call, signal);
    call.metered.meter.channelId = opened.channel.id;
    return this.relay(call, opened, signal);
  }

  private async *relay(call: ChatCall, opened: OpenedStream, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    const protocol = chatProtocolOf(opened.channel);
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
    /** Output for a batch of IR events; usage is made durable before the frames that end the answer. */
    const emit = async (events: IrStreamEvent[], raw: string): Promise<string> => {
      let out = raw;
      for (const event of events) {
        produced += producedText(event);
        if (event.type === 'finish') usage = event.usage;
        if (!passThrough) out += familyEncoder.push(event);
      }
      if (usage && !metered.done) metered.succeed();
      return out;
    };
    try {
      let message: SseEvent | undefined = opened.first;
      while (message) {
        const raw = passThrough ? this.frame(message, rewrite) : '';
        const out = await emit(decoder.push(message), raw);
        if (out !== '') yield encoder.encode(out);
        const next: IteratorResult<SseEvent> = await opened.events.next();
        message = next.done ? undefined : next.value;
      }
      let out = await emit(decoder.end(), '');
      if (passThrough) out += call.family === 'oaic' ? SSE_DONE : '';
      else out += familyEncoder.end();
      if (out !== '') yield encoder.encode(out);
    } catch (error) {
      // A client that went away is no failure: `finally` counts what it received.
      if (!signal.aborted) throw metered.fail(error);
    } finally {
      opened.destroy();
      metered.cancel();
    }
  }

  private frame(message: SseEvent, rewrite: (data: string) => string): string {
    const data = rewrite(message.data);
    return message.event ? `event: ${message.event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
  }
}
