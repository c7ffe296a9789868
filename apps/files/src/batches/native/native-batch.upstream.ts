import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import {
  fromUpstreamError,
  openaiBatches,
  parseBatchApiReply,
  readBodyJson,
  readBodyText,
  sendAuthorized,
  UpstreamBatchObject,
  UpstreamFileObject,
  type UpstreamRequest,
} from '@gateway/providers';
import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { FILES_ENV, type FilesEnv } from '../../config/files-env';

/** The upstream cannot answer now (429, 5xx, timeout, unreachable): ask again later, after `retryAfterSeconds` when it said. */
export class UpstreamBusy extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }
}

const busyStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/**
 * The files service's HTTP to an upstream's own batch API (OpenAI protocol): upload the input file as a
 * stream, create, retrieve and cancel the batch, stream a file's content back. A refusal (4xx) is a
 * GatewayError; a busy or unreachable upstream is UpstreamBusy, for the caller to try again later.
 */
@Injectable()
export class NativeBatchUpstream {
  constructor(@Inject(FILES_ENV) private readonly env: FilesEnv) {}

  async upload(channel: CatalogChannel, filename: string, lines: Readable): Promise<string> {
    const response = await this.send(channel, openaiBatches.uploadRequest(channel, filename, lines), { timeoutMs: this.env.NATIVE_BATCH_UPSTREAM_TIMEOUT_MS });
    return parseBatchApiReply(UpstreamFileObject, await readBodyJson(response), 'file object').id;
  }

  async create(channel: CatalogChannel, inputFileId: string, endpoint: string, metadata: Record<string, string>): Promise<UpstreamBatchObject> {
    return this.batch(channel, openaiBatches.createRequest(channel, inputFileId, endpoint, metadata));
  }

  async retrieve(channel: CatalogChannel, batchId: string): Promise<UpstreamBatchObject> {
    return this.batch(channel, openaiBatches.retrieveRequest(channel, batchId));
  }

  async cancel(channel: CatalogChannel, batchId: string): Promise<UpstreamBatchObject> {
    return this.batch(channel, openaiBatches.cancelRequest(channel, batchId));
  }

  /** A file's bytes as they arrive; only a silence longer than the timeout ends the download. */
  async content(channel: CatalogChannel, fileId: string): Promise<Readable> {
    const timeout = this.env.NATIVE_BATCH_UPSTREAM_TIMEOUT_MS;
    return this.send(channel, openaiBatches.contentRequest(channel, fileId), { firstByteTimeoutMs: timeout, idleTimeoutMs: timeout });
  }

  private async batch(channel: CatalogChannel, request: UpstreamRequest): Promise<UpstreamBatchObject> {
    const body = await this.send(channel, request, { timeoutMs: this.env.NATIVE_BATCH_UPSTREAM_TIMEOUT_MS });
    return parseBatchApiReply(UpstreamBatchObject, await readBodyJson(body), 'batch object');
  }

  private async send(
    channel: CatalogChannel,
    request: UpstreamRequest,
    options: { timeoutMs?: number; firstByteTimeoutMs?: number; idleTimeoutMs?: number },
  ): Promise<Readable> {
    let response;
    try {
      response = await sendAuthorized(request, channel, options);
    } catch (error) {
      throw new UpstreamBusy((error as Error).message, null);
    }
    if (response.status >= 200 && response.status < 300) return response.body;
    const text = await readBodyText(response.body).catch(() => '');
    const failure: GatewayError = fromUpstreamError(response.status, text, { secrets: [channel.apiKey], headers: response.headers });
    if (busyStatus(response.status)) throw new UpstreamBusy(failure.message, failure.retryAfterSeconds);
    throw failure;
  }
}
