import { extractUsage, fromUpstream, readBodyJson, toCompatibleUpstream } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { UpstreamCallService } from '../pipeline/upstream-call.service';
import { estimateTokens } from '../pipeline/stream-delta';
import type { PreparedCall } from './oaic-request.service';

/** Embeddings, moderations and images on OpenAI-protocol channels: one answer, parsed, usage recorded durably, then the reply. */
@Injectable()
export class OaicOperationsService {
  constructor(private readonly upstream: UpstreamCallService) {}

  async execute(call: PreparedCall<'embeddings' | 'moderations' | 'images'>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const { op } = call;
    const { channel, response } = await this.upstream.open(call.channels, (ch) => toCompatibleUpstream(op, call.body, ch, { stream: false }), signal);
    call.metered.meter.channelId = channel.id;
    const answer = fromUpstream(op, await readBodyJson(response.body), call.modelId);
    const usage = extractUsage(answer);
    if (usage) call.metered.meter.tokens = { prompt: usage.promptTokens, completion: usage.completionTokens, cached: usage.cachedTokens };
    else if (call.op === 'images')
      call.metered.meter.tokens = { prompt: estimateTokens(call.body.prompt), completion: Array.isArray(answer.data) ? answer.data.length : 0 };
    else call.metered.meter.tokens = { prompt: estimateTokens(JSON.stringify(call.body.input ?? '')), completion: 0 };
    call.metered.succeed();
    return answer;
  }
}
