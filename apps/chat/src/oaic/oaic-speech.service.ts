import { type SpeechReply } from '@gateway/contracts';
import { OBJECT_STORE } from '@gateway/platform/infra';
import { toCompatibleUpstream } from '@gateway/providers';
import { objectKey, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { responseHeader, UpstreamCallService } from '../pipeline/upstream-call.service';
import { estimateTokens } from '../pipeline/stream-delta';
import type { PreparedCall } from './oaic-request.service';

/** Speech: the upstream's audio is written to object storage, for the edge to stream out; bytes never ride NATS. */
@Injectable()
export class OaicSpeechService {
  constructor(
    private readonly upstream: UpstreamCallService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async create(call: PreparedCall<'speech'>, signal: AbortSignal): Promise<SpeechReply> {
    const { channel, response } = await this.upstream.open(call.channels, (ch) => toCompatibleUpstream('speech', call.body, ch, { stream: false }), signal);
    call.metered.meter.channelId = channel.id;
    const contentType = responseHeader(response, 'content-type') ?? 'audio/mpeg';
    const key = objectKey('speech', call.caller.tenantId, call.caller.requestId);
    const info = await this.store.put(key, response.body, contentType);
    call.metered.meter.tokens = { prompt: estimateTokens(call.body.input), completion: 0 };
    call.metered.succeed();
    return { objectKey: key, contentType, size: info.size };
  }
}
