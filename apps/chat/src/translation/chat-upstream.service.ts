import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import {
  assertIrUrls,
  crossedUpstreamError,
  executeWithFailover,
  NATIVE_FAMILY,
  sendUpstream,
  UPSTREAM_CHAT,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/providers';
import { Inject, Injectable } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import { openFirstEvent, type OpenedStream } from '../upstream/first-event-failover';
import { UpstreamAttempts } from '../upstream/upstream-observer';
import { chatProtocolOf, isPassThrough, type ChatCall } from './chat-call';
import { passThroughRequest } from './passthrough-request';

export interface ServedCall {
  channel: CatalogChannel;
  response: UpstreamResponse;
}

/** An error event inside an upstream stream, in any of the three protocols' shapes. */
function streamError(data: string): GatewayError | null {
  if (!data.includes('"error"')) return null;
  try {
    const value = JSON.parse(data) as { type?: unknown; error?: { message?: unknown } | string };
    if (!value || typeof value !== 'object' || value.error === undefined) return null;
    const error = value.error;
    const message = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : 'The upstream stream reported an error.';
    return new GatewayError('upstream_error', message);
  } catch {
    return null;
  }
}

/**
 * Calls a chat call's channels in order, each in its own protocol: the client's body untouched when the
 * protocol is the family's own, the IR encoded for it otherwise. Failover and each protocol's error
 * dialect come from the providers; only status and headers are awaited before a channel is chosen.
 */
@Injectable()
export class ChatUpstreamService {
  constructor(@Inject(CHAT_ENV) private readonly env: ChatEnv) {}

  request(call: ChatCall, channel: CatalogChannel): UpstreamRequest {
    const protocol = chatProtocolOf(channel);
    if (isPassThrough(call.family, protocol)) return passThroughRequest(protocol, call.body, channel, call.stream);
    const ir = call.ir();
    assertIrUrls(ir);
    return UPSTREAM_CHAT[protocol].toRequest({ ...ir, stream: call.stream }, channel);
  }

  async open(call: ChatCall, channels: readonly CatalogChannel[], signal: AbortSignal): Promise<ServedCall> {
    const attempts = new UpstreamAttempts();
    const { channel, response } = await executeWithFailover(
      channels,
      (ch) => attempts.send(ch, () => sendUpstream(this.request(call, ch), { signal, firstByteTimeoutMs: this.env.UPSTREAM_TIMEOUT_MS })),
      {
        signal,
        toError: (status, text, ch, headers) => this.upstreamError(call, ch, status, text, headers),
      },
    );
    return { channel, response };
  }

  /** An upstream's refusal in its protocol's dialect; on a crossed path, told in the client's field names. */
  upstreamError(call: ChatCall, channel: CatalogChannel, status: number, text: string, headers?: Record<string, string | string[] | undefined>): GatewayError {
    const protocol = chatProtocolOf(channel);
    const error = UPSTREAM_CHAT[protocol].fromError(status, text, { headers, secrets: [channel.apiKey] });
    return isPassThrough(call.family, protocol) ? error : crossedUpstreamError(error, call.family, NATIVE_FAMILY[protocol]);
  }

  /** Opens channels in order until one produces a first event that is not an error: nothing has reached the client before. */
  openStream(call: ChatCall, signal: AbortSignal): Promise<OpenedStream> {
    return openFirstEvent(call.channels, (channels) => this.open(call, channels, signal), streamError, signal);
  }
}
