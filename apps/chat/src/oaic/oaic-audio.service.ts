import { GatewayError, TranscriptionFields, TranslationFields, parseOrThrow, type OaicAudioPayload, type SpeechReply, type TranscriptionReply } from '@gateway/contracts';
import { fromUpstream, orderChannels, readBodyText, toUpstream } from '@gateway/providers';
import type { ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { CatalogService } from '../catalog/catalog.service';
import { OBJECT_STORE } from '../config/infra.module';
import { UsageMeter } from '../usage/usage-meter';
import { UsagePublisher } from '../usage/usage.publisher';
import type { PreparedCall } from './oaic-request.service';
import { estimateTokens } from './stream-delta';
import { UpstreamCallService } from './upstream-call.service';

const JSON_FORMATS = new Set(['json', 'verbose_json']);

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Audio through object storage: speech is written there for the edge to stream out; uploads are read from there. */
@Injectable()
export class OaicAudioService {
  constructor(
    private readonly upstream: UpstreamCallService,
    private readonly usage: UsagePublisher,
    private readonly catalog: CatalogService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async speech(call: PreparedCall, signal: AbortSignal): Promise<SpeechReply> {
    const { channel, response } = await this.upstream.open(call.channels, (ch) => toUpstream('speech', call.body, ch, { stream: false }), signal);
    call.meter.channelId = channel.id;
    const contentType = header(response.headers, 'content-type') ?? 'audio/mpeg';
    const objectKey = `speech/${call.caller.requestId}`;
    const info = await this.store.put(objectKey, response.body, contentType);
    call.meter.tokens = { prompt: estimateTokens(String(call.body.input)), completion: 0 };
    this.usage.record(call.meter.ok());
    return { objectKey, contentType, size: info.size };
  }

  async transcribe(op: 'transcriptions' | 'translations', payload: OaicAudioPayload, meter: UsageMeter, signal: AbortSignal): Promise<TranscriptionReply> {
    const fields = parseOrThrow(op === 'translations' ? TranslationFields : TranscriptionFields, payload.fields);
    meter.modelId = fields.model;
    const route = await this.catalog.route(payload.tenantId, fields.model, 'stt');
    const file = payload.file;
    if (!(await this.store.stat(file.key))) throw GatewayError.invalid('The uploaded file is no longer available; upload it again.', 'file');
    const { channel, response } = await this.upstream.open(
      orderChannels(route.channels),
      // Each attempt reads the upload afresh, so a retry on another channel sends the whole file again.
      (ch) => toUpstream(op, payload.fields, ch, { stream: false, file: { filename: file.filename, contentType: file.contentType, data: this.lazyRead(file.key) } }),
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
      reply = { contentType: header(response.headers, 'content-type') ?? 'text/plain; charset=utf-8', body: text };
    }
    meter.tokens = { prompt: 0, completion: estimateTokens(typeof reply.body === 'string' ? reply.body : String(reply.body.text ?? '')) };
    this.usage.record(meter.ok());
    return reply;
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
