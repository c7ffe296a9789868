import type { CatalogChannel, MusicVerb } from '@gateway/contracts';
import {
  parseMusicCreateAnswer,
  parseMusicRecordInfo,
  parseUpstreamBody,
  readBodyJson,
  sendAuthorized,
  toMusicCreateRequest,
  toMusicRecordInfoRequest,
  type MusicProgress,
} from '@gateway/providers';
import { recordUpstreamAttempts } from '@gateway/platform';
import { Inject, Injectable } from '@nestjs/common';
import { MUSIC_ENV, type MusicEnv } from '../config/music-env';

/** The music service's HTTP calls to its upstream: submit a task, read where one stands. */
@Injectable()
export class MusicUpstreamClient {
  constructor(@Inject(MUSIC_ENV) private readonly env: MusicEnv) {}

  async submit(
    verb: MusicVerb,
    body: Record<string, unknown>,
    channel: CatalogChannel,
    callBackUrl: string,
    sourceUpstreamTaskId: string | null,
  ): Promise<string> {
    const request = toMusicCreateRequest(verb, body, {
      baseUrl: channel.baseUrl,
      apiKey: channel.apiKey,
      upstreamModel: channel.upstreamModel,
      callBackUrl,
      sourceUpstreamTaskId,
    });
    // The submit lands in the upstream series: the operator console's channel health reads them.
    const started = performance.now();
    const ms = () => performance.now() - started;
    const systemOf = () => channel.protocol;
    let response;
    try {
      response = await sendAuthorized(request, channel, { timeoutMs: this.env.UPSTREAM_TIMEOUT_MS });
    } catch (error) {
      recordUpstreamAttempts([{ channelId: channel.id, error: 'upstream_error', ms: ms() }], systemOf);
      throw error;
    }
    recordUpstreamAttempts([{ channelId: channel.id, status: response.status, ms: ms() }], systemOf);
    const json = await readBodyJson(response.body, 1_000_000);
    return parseMusicCreateAnswer(response.status, json);
  }

  async recordInfo(verb: MusicVerb, upstreamTaskId: string, channel: CatalogChannel): Promise<MusicProgress> {
    const response = await sendAuthorized(toMusicRecordInfoRequest(verb, upstreamTaskId, channel.baseUrl, channel.apiKey), channel, {
      timeoutMs: this.env.UPSTREAM_TIMEOUT_MS,
    });
    const json = await readBodyJson(response.body, 10_000_000);
    return parseUpstreamBody(() => parseMusicRecordInfo(json));
  }
}
