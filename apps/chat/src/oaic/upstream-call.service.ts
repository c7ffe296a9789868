import type { CatalogChannel } from '@gateway/contracts';
import { executeWithFailover, fromUpstreamError, sendUpstream, type UpstreamRequest, type UpstreamResponse } from '@gateway/providers';
import { Inject, Injectable } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import { UpstreamAttempts } from '../upstream/upstream-observer';

export interface Served {
  channel: CatalogChannel;
  response: UpstreamResponse;
}

/**
 * Opens an upstream call on the first channel that answers 2xx (the providers' failover: connection
 * errors, timeouts, 429 and 5xx move on). Only status and headers are awaited, so nothing has reached
 * the client when a retry happens; upstream errors come back in our terms without the channel's key.
 */
@Injectable()
export class UpstreamCallService {
  constructor(@Inject(CHAT_ENV) private readonly env: ChatEnv) {}

  async open(channels: readonly CatalogChannel[], build: (channel: CatalogChannel) => UpstreamRequest, signal: AbortSignal): Promise<Served> {
    const attempts = new UpstreamAttempts();
    const { channel, response } = await executeWithFailover(
      channels,
      (ch) => attempts.send(ch, () => sendUpstream(build(ch), { signal, firstByteTimeoutMs: this.env.UPSTREAM_TIMEOUT_MS })),
      { signal, toError: (status, text, ch, headers) => fromUpstreamError(status, text, { headers, secrets: [ch.apiKey] }) },
    );
    return { channel, response };
  }
}
