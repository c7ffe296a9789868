import { UpstreamRun, type CatalogChannel } from '@gateway/contracts';
import { parseUpstreamBody, readBodyJson, toAssistantsUpstream, toRunRetrieveUpstream, type AssistantsCall, type RunPathIds } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import { UpstreamCallService, type Served } from '../pipeline/upstream-call.service';

/**
 * The HTTP side of the assistants pass-through: one call on the given channels (in order, the providers'
 * failover on connection errors, 429 and 5xx), the upstream's errors in our terms without its key, and
 * its JSON answer parsed with the schema the caller relies on.
 */
@Injectable()
export class AssistantsUpstream {
  constructor(private readonly upstream: UpstreamCallService) {}

  open(call: AssistantsCall, channels: readonly CatalogChannel[], signal: AbortSignal): Promise<Served> {
    return this.upstream.open(channels, (channel) => toAssistantsUpstream(call, channel), signal);
  }

  async json<T extends z.ZodType>(
    call: AssistantsCall,
    channels: readonly CatalogChannel[],
    schema: T,
    signal: AbortSignal,
  ): Promise<Served & { answer: z.infer<T> }> {
    const served = await this.open(call, channels, signal);
    const body = await readBodyJson(served.response.body);
    return { ...served, answer: parseUpstreamBody(() => schema.parse(body) as z.infer<T>) };
  }

  /** One run as its channel has it now; an upstream refusal is a GatewayError carrying the upstream's status. */
  async retrieveRun(ids: RunPathIds, channel: CatalogChannel, signal: AbortSignal): Promise<UpstreamRun> {
    const { response } = await this.upstream.open([channel], (target) => toRunRetrieveUpstream(ids, target), signal);
    const body = await readBodyJson(response.body);
    return parseUpstreamBody(() => UpstreamRun.parse(body));
  }
}
