import { extractUsage, fromUpstream, readBodyJson, toUpstream } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { ResponsesService } from '../responses/responses.service';
import type { JsonOperation } from './oaic-operation';
import type { PreparedCall } from './oaic-request.service';
import { estimateTokens } from './stream-delta';
import { UpstreamCallService } from './upstream-call.service';

type UnaryOperation = Exclude<JsonOperation, 'speech'>;

/** Unary oaic operations: one upstream answer, parsed, usage recorded durably, then the reply. */
@Injectable()
export class OaicJsonService {
  constructor(
    private readonly upstream: UpstreamCallService,
    private readonly responses: ResponsesService,
  ) {}

  async execute(call: PreparedCall<UnaryOperation>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const { op } = call;
    const { channel, response } = await this.upstream.open(call.channels, (ch) => toUpstream(op, call.body, ch, { stream: false }), signal);
    call.metered.meter.channelId = channel.id;
    let answer = fromUpstream(op, await readBodyJson(response.body), call.modelId);
    const usage = extractUsage(answer);
    if (usage) call.metered.meter.tokens = { prompt: usage.promptTokens, completion: usage.completionTokens, cached: usage.cachedTokens };
    else if (call.op === 'images')
      call.metered.meter.tokens = { prompt: estimateTokens(call.body.prompt), completion: Array.isArray(answer.data) ? answer.data.length : 0 };
    else call.metered.meter.tokens = { prompt: estimateTokens(JSON.stringify(call.body.input ?? '')), completion: 0 };
    if (op === 'responses') answer = await this.responses.store(call.caller.tenantId, answer, channel.id);
    call.metered.succeed();
    return answer;
  }
}
