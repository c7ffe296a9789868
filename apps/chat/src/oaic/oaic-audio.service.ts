import { BillingClient } from '@gateway/billing';
import { GatewayError, TranscriptionFields, TranslationFields, parseOrThrow, type OaicAudioPayload, type TranscriptionReply } from '@gateway/contracts';
import { CatalogCache } from '@gateway/platform';
import { OBJECT_STORE } from '@gateway/platform/infra';
import { fromUpstream, orderChannels, readBodyText, toCompatibleUpstream } from '@gateway/providers';
import { isObjectKey, objectKey, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import type { MeteredStream } from '../usage/metered-stream';
import { maxAudioSeconds, reportedAudioUsage, wavSeconds } from './audio-duration';
import { responseHeader, UpstreamCallService } from '../pipeline/upstream-call.service';
import { estimateTokens } from '../pipeline/stream-delta';
import { channelsFor } from './oaic-codec';

const JSON_FORMATS = new Set(['json', 'verbose_json']);
/** Enough of an upload to find a WAV header's format and data chunks. */
const HEAD_BYTES = 4096;

/** Transcriptions and translations of an upload the edge put in object storage, priced per second of audio. */
@Injectable()
export class OaicAudioService {
  constructor(
    private readonly upstream: UpstreamCallService,
    private readonly catalog: CatalogCache,
    private readonly billing: BillingClient,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async transcribe(op: 'transcriptions' | 'translations', payload: OaicAudioPayload, metered: MeteredStream, signal: AbortSignal): Promise<TranscriptionReply> {
    const fields = parseOrThrow(op === 'translations' ? TranslationFields : TranscriptionFields, payload.fields);
    const { meter } = metered;
    meter.modelId = fields.model;
    const route = await this.catalog.route(payload, fields.model, 'stt');
    const channels = channelsFor(op, fields.model, route.channels);
    const file = payload.file;
    // An upload is read only from this request's own prefix (the edge put it there).
    if (!isObjectKey(file.key) || !file.key.startsWith(`${objectKey('uploads', payload.tenantId, payload.requestId)}/`)) {
      throw new GatewayError('internal', 'The uploaded file was stored under an unexpected key.');
    }
    const stored = await this.store.stat(file.key);
    if (!stored) throw GatewayError.invalid('The uploaded file is no longer available; upload it again.', 'file');
    // Priced per second of audio: the most the upload can play is reserved before the upstream call.
    const head = await this.head(file.key);
    const maxSeconds = maxAudioSeconds(head, stored.size);
    await this.billing.reserve({
      requestId: payload.requestId,
      tenantId: payload.tenantId,
      keyKind: payload.keyKind,
      model: route.model,
      body: fields,
      maxUsage: { inputTokens: 0, outputTokens: 0, seconds: maxSeconds },
      budgets: payload.budgets,
    });
    const { channel, response } = await this.upstream.open(
      orderChannels(channels),
      // Each attempt reads the upload afresh, so a retry on another channel sends the whole file again.
      (ch) =>
        toCompatibleUpstream(op, payload.fields, ch, {
          stream: false,
          file: { filename: file.filename, contentType: file.contentType, data: this.lazyRead(file.key) },
        }),
      signal,
    );
    meter.channelId = channel.id;
    const text = await readBodyText(response.body);
    const format = fields.response_format ?? 'json';
    let reply: TranscriptionReply;
    if (JSON_FORMATS.has(format)) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new GatewayError('upstream_error', 'The upstream answered with a body that is not JSON.');
      }
      reply = { contentType: 'application/json', body: fromUpstream(op, json, fields.model) };
    } else {
      reply = { contentType: responseHeader(response, 'content-type') ?? 'text/plain; charset=utf-8', body: text };
    }
    // Charged by what the upstream metered; when it does not say (text formats), by the WAV header, else the size bound.
    const reported = reportedAudioUsage(reply.body);
    meter.tokens = {
      prompt: reported?.inputTokens ?? 0,
      completion: reported?.outputTokens ?? estimateTokens(typeof reply.body === 'string' ? reply.body : String(reply.body.text ?? '')),
    };
    meter.seconds = reported?.inputTokens !== undefined ? 0 : (reported?.seconds ?? wavSeconds(head, stored.size) ?? maxSeconds);
    metered.succeed();
    return reply;
  }

  /** The first bytes of a stored upload. */
  private async head(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let length = 0;
    const stream = await this.store.get(key);
    try {
      for await (const chunk of stream) {
        chunks.push(chunk as Buffer);
        length += (chunk as Buffer).length;
        if (length >= HEAD_BYTES) break;
      }
    } finally {
      stream.destroy();
    }
    return Buffer.concat(chunks).subarray(0, HEAD_BYTES);
  }

  /** A Readable that opens the stored object only when the upstream body starts flowing. */
  private lazyRead(key: string): Readable {
    const store = this.store;
    async function* chunks(): AsyncGenerator<Buffer> {
      for await (const chunk of await store.get(key)) yield chunk as Buffer;
    }
    return Readable.from(chunks());
  }
}
