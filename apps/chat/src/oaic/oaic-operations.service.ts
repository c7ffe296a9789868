import type { CatalogChannel, EmbeddingResponse } from '@gateway/contracts';
import {
  embeddingsDialectOf,
  extractUsage,
  fromUpstream,
  readBodyJson,
  toCompatibleUpstream,
  type EmbeddingsDialect,
  type UpstreamRequest,
  type UpstreamResponse,
} from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { openaiRefusal, UpstreamCallService, type Refusal } from '../pipeline/upstream-call.service';
import { estimateTokens } from '../pipeline/stream-delta';
import type { PreparedCall } from './oaic-request.service';

/** Embeddings, moderations and images on OpenAI-protocol channels (embeddings on Bedrock and Vertex too): the answer parsed, usage recorded durably, then the reply. */
@Injectable()
export class OaicOperationsService {
  constructor(private readonly upstream: UpstreamCallService) {}

  async execute(call: PreparedCall<'embeddings' | 'moderations' | 'images'>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const { op } = call;
    const { channel, response } = await this.upstream.open(call.channels, (ch) => this.firstCall(call, ch), signal, this.refusal(call));
    call.metered.meter.channelId = channel.id;
    const dialect = call.op === 'embeddings' ? embeddingsDialectOf(channel.protocol) : null;
    const answer =
      call.op === 'embeddings' && dialect
        ? await this.cloudEmbeddings(call, dialect, channel, response, signal)
        : fromUpstream(op, await readBodyJson(response.body), call.modelId);
    const usage = extractUsage(answer);
    if (usage) call.metered.meter.tokens = { prompt: usage.promptTokens, completion: usage.completionTokens, cached: usage.cachedTokens };
    else if (call.op === 'images')
      call.metered.meter.tokens = { prompt: estimateTokens(call.body.prompt), completion: Array.isArray(answer.data) ? answer.data.length : 0 };
    else call.metered.meter.tokens = { prompt: estimateTokens(JSON.stringify(call.body.input ?? '')), completion: 0 };
    call.metered.succeed();
    return answer;
  }

  /** The call that chooses a channel: the OpenAI protocol's, or the first of a cloud dialect's embedding calls. */
  private firstCall(call: PreparedCall<'embeddings' | 'moderations' | 'images'>, channel: CatalogChannel): UpstreamRequest {
    const dialect = call.op === 'embeddings' ? embeddingsDialectOf(channel.protocol) : null;
    return dialect && call.op === 'embeddings'
      ? dialect.requests(call.body, channel)[0]!
      : toCompatibleUpstream(call.op, call.body, channel, { stream: false });
  }

  private refusal(call: PreparedCall): Refusal {
    if (call.op !== 'embeddings') return openaiRefusal;
    return (status, text, channel, headers) => {
      const dialect = embeddingsDialectOf(channel.protocol);
      return dialect
        ? dialect.fromError(status, text, { headers, secrets: [channel.apiKey], provider: channel.providerId })
        : openaiRefusal(status, text, channel, headers);
    };
  }

  /** A cloud's embeddings: the first call's answer in hand, the rest (Titan embeds one text a call) on the same channel. */
  private async cloudEmbeddings(
    call: PreparedCall<'embeddings'>,
    dialect: EmbeddingsDialect,
    channel: CatalogChannel,
    first: UpstreamResponse,
    signal: AbortSignal,
  ): Promise<EmbeddingResponse> {
    const rest = dialect.requests(call.body, channel).slice(1);
    const refusal = this.refusal(call);
    const responses = [
      first,
      ...(await Promise.all(rest.map(async (request) => (await this.upstream.open([channel], () => request, signal, refusal)).response))),
    ];
    const answers = await Promise.all(responses.map(async (response) => ({ body: await readBodyJson(response.body), headers: response.headers })));
    return dialect.answer(answers, call.body, call.modelId, channel);
  }
}
