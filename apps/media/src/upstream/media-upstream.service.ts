import { type CatalogChannel, GatewayError } from '@gateway/contracts';
import { recordUpstreamAttempts } from '@gateway/platform';
import {
  executeWithFailover,
  FailoverError,
  isRetryableStatus,
  type MediaAsset,
  type MediaJob,
  type MediaPollResult,
  type MediaSubmitResult,
  mediaVendorOf,
  type MediaVendor,
  orderChannels,
  readBodyJson,
  readBodyText,
  sendAuthorized,
  sendUpstream,
} from '@gateway/providers';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { MEDIA_ENV, type MediaEnv } from '../config/media-env';

/** A poll that learned nothing: the upstream was busy (429), failing (5xx) or unreachable; try again later. */
export interface PollDeferred {
  state: 'deferred';
  reason: string;
  retryAfterSeconds: number | null;
}

function vendorOf(channel: CatalogChannel): MediaVendor {
  const vendor = mediaVendorOf(channel.protocol);
  if (!vendor) throw new GatewayError('unavailable', `The model's channel speaks ${channel.protocol}, which serves no media tasks.`);
  return vendor;
}

/** The media service's HTTP to upstreams: submit with channel failover, poll, and fetch results as streams. */
@Injectable()
export class MediaUpstreamService {
  constructor(@Inject(MEDIA_ENV) private readonly env: MediaEnv) {}

  /**
   * Submits to the model's channels in routing order; a refusal (4xx) comes back at once as a GatewayError.
   * `callbackUrl` is asked for, and given, only for the channels that take callbacks.
   */
  async submit(
    channels: readonly CatalogChannel[],
    job: MediaJob,
    callbackUrl: () => string | undefined = () => undefined,
  ): Promise<{ channel: CatalogChannel; result: MediaSubmitResult }> {
    const usable = orderChannels(channels.filter((channel) => mediaVendorOf(channel.protocol) !== null));
    if (usable.length === 0) throw new GatewayError('unavailable', 'No channel of this model speaks a media protocol.');
    // Each attempt lands in the upstream series: the operator console's channel health reads them.
    const protocolOf = (id: string) => usable.find((c) => c.id === id)?.protocol ?? '';
    let outcome;
    try {
      outcome = await executeWithFailover(
        usable,
        (c) => sendAuthorized(vendorOf(c).submitRequest(c, job, c.callbacks ? callbackUrl() : undefined), c, { timeoutMs: this.env.MEDIA_UPSTREAM_TIMEOUT_MS }),
        { toError: (status, bodyText, c) => vendorOf(c).toError(status, bodyText, c) },
      );
    } catch (error) {
      if (error instanceof FailoverError) recordUpstreamAttempts(error.attempts, protocolOf);
      throw error;
    }
    recordUpstreamAttempts(outcome.attempts, protocolOf);
    const { channel, response } = outcome;
    return { channel, result: vendorOf(channel).parseSubmit(await readBodyJson(response.body), channel) };
  }

  async poll(channel: CatalogChannel, upstreamTaskId: string, job: MediaJob): Promise<MediaPollResult | PollDeferred> {
    const vendor = vendorOf(channel);
    let response;
    try {
      response = await sendAuthorized(vendor.pollRequest(channel, upstreamTaskId, job), channel, { timeoutMs: this.env.MEDIA_UPSTREAM_TIMEOUT_MS });
    } catch (error) {
      return { state: 'deferred', reason: (error as Error).message, retryAfterSeconds: null };
    }
    if (response.status >= 200 && response.status < 300) {
      try {
        return vendor.parsePoll(await readBodyJson(response.body), channel, upstreamTaskId);
      } catch (error) {
        // A vendor envelope carrying a rate or server error (code ≠ 0) leaves the task as it is too.
        if (error instanceof GatewayError && (error.code === 'rate_limited' || error.code === 'upstream_error')) {
          return { state: 'deferred', reason: error.message, retryAfterSeconds: error.retryAfterSeconds };
        }
        throw error;
      }
    }
    const bodyText = await readBodyText(response.body).catch(() => '');
    const failure = vendor.toError(response.status, bodyText, channel);
    if (isRetryableStatus(response.status) && response.status !== 404) {
      return { state: 'deferred', reason: failure.message, retryAfterSeconds: failure.retryAfterSeconds };
    }
    return { state: 'failed', code: `upstream_${response.status}`, message: failure.message };
  }

  /** The bytes of one generated file, streamed; its content type as the upstream gives it. */
  async download(asset: MediaAsset): Promise<{ body: Readable; contentType: string | null; size: number | null }> {
    const response = await sendUpstream(
      { method: 'GET', url: asset.url, headers: asset.headers ?? {}, stream: false },
      { timeoutMs: this.env.MEDIA_UPSTREAM_TIMEOUT_MS * 4 },
    );
    if (response.status < 200 || response.status >= 300) {
      response.body.resume();
      throw new GatewayError('upstream_error', `The upstream's result file answered HTTP ${response.status}.`, null, null);
    }
    const type = response.headers['content-type'];
    const length = Number(response.headers['content-length']);
    if (Number.isFinite(length) && length > this.env.MEDIA_MAX_ASSET_BYTES) {
      response.body.destroy();
      throw new GatewayError('upstream_error', `The upstream's result file is larger than ${this.env.MEDIA_MAX_ASSET_BYTES} bytes.`);
    }
    return { body: response.body, contentType: Array.isArray(type) ? (type[0] ?? null) : (type ?? null), size: Number.isFinite(length) ? length : null };
  }
}
