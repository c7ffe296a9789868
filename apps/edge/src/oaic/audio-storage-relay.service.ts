import {
  GatewayError,
  parseOrThrow,
  SpeechReply,
  TranscriptionFields,
  TranscriptionReply,
  TranslationFields,
  type OaicAudioPayload,
  type StoredFileRef,
} from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { keySegmentOf, objectKey, servedObjectHeaders, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { MultipartFile } from '@fastify/multipart';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { failWithConnection, onCutShort, FormCounter, multipartLimitsOf, parserLimits, type MultipartLimits } from '../routing/multipart-form';
import { dropRestOfBody } from '../routing/refused-body';
import type { RouteRequest } from '../routing/route-request';
import { OAIC_ENV, OAIC_OBJECT_STORE, type OaicEnv } from './oaic-env';
import { ChatRelay } from '../relay/chat-relay.service';
import { callerOf } from '../relay/tenant-call';

type FieldPart = { type: 'field'; fieldname: string; value: unknown; valueTruncated?: boolean; fieldnameTruncated?: boolean };
type MultipartRequest = {
  isMultipart(): boolean;
  parts(options?: { limits?: ReturnType<typeof parserLimits> }): AsyncIterableIterator<MultipartFile | FieldPart>;
};

/** Largest audio upload accepted (the common upstream limit). */
export const MAX_AUDIO_UPLOAD_BYTES = 25 * 1024 * 1024;

/**
 * Audio over object storage: uploads stream from the client into storage and travel to the chat
 * service as a reference; synthesized speech comes back the same way and streams out with its type.
 */
@Injectable()
export class AudioStorageRelayService {
  private readonly limits: MultipartLimits;

  constructor(
    private readonly bus: NatsBus,
    private readonly relay: ChatRelay,
    @Inject(OAIC_OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(OAIC_ENV) private readonly env: OaicEnv,
    @Inject(EDGE_ENV) edgeEnv: EdgeEnv,
  ) {
    this.limits = multipartLimitsOf(edgeEnv);
  }

  async speech(subject: string, request: RouteRequest): Promise<undefined> {
    const result = SpeechReply.parse(await this.relay.json(subject, request));
    // Only this request's own object is streamed out (and deleted), whatever the reply names.
    if (result.objectKey !== objectKey('speech', request.key.tenantId, request.requestId))
      throw new GatewayError('internal', 'The synthesized audio was stored under an unexpected key.');
    const audio = await this.store.get(result.objectKey);
    audio.once('close', () => void this.store.delete(result.objectKey).catch(() => undefined));
    void request.reply
      .headers(servedObjectHeaders(result.contentType, { inline: true }))
      .header('content-length', String(result.size))
      .send(audio);
    return undefined;
  }

  async transcribe(subject: string, request: RouteRequest, translation: boolean): Promise<unknown> {
    const raw = request.raw as unknown as MultipartRequest;
    if (typeof raw.isMultipart !== 'function' || !raw.isMultipart()) {
      throw GatewayError.invalid('This route takes multipart/form-data with a file and a model.', 'file');
    }
    const fields: Record<string, string> = {};
    let file: StoredFileRef | undefined;
    try {
      try {
        file = await this.readParts(raw, request, fields);
      } catch (error) {
        dropRestOfBody(request.raw.raw);
        throw error;
      }
      if (!file) throw GatewayError.invalid("Missing required parameter: 'file'.", 'file');
      parseOrThrow(translation ? TranslationFields : TranscriptionFields, fields);
      const payload: OaicAudioPayload = { ...callerOf(request), fields, file };
      const result = await this.bus.request(subject, payload, TranscriptionReply, { timeoutMs: this.env.CHAT_TIMEOUT_MS });
      if (typeof result.body === 'string') {
        void request.reply.type(result.contentType).send(result.body);
        return undefined;
      }
      return result.body;
    } finally {
      if (file) void this.store.delete(file.key).catch(() => undefined);
    }
  }

  /**
   * Reads the form: the first `file` part streams into storage, string fields are collected. A body the
   * multipart parser cannot read to its end (cut short, malformed) is the client's error, a 400 naming it.
   */
  private async readParts(raw: MultipartRequest, request: RouteRequest, fields: Record<string, string>): Promise<StoredFileRef | undefined> {
    let taken = false;
    let file: StoredFileRef | undefined;
    let cutShort: Error | undefined;
    const counter = new FormCounter(this.limits, request.raw.raw);
    try {
      for await (const part of counter.read(raw.parts({ limits: parserLimits(this.limits, { fileSize: MAX_AUDIO_UPLOAD_BYTES, files: 1 }) }))) {
        counter.take(part);
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || taken) {
            part.file.resume();
            continue;
          }
          taken = true;
          onCutShort(part.file, (error) => (cutShort ??= error));
          const filename = part.filename || 'audio';
          const key = objectKey('uploads', request.key.tenantId, request.requestId, keySegmentOf(filename, 'audio'));
          const unwatch = failWithConnection(request.raw.raw, part.file);
          const info = await this.store
            .put(key, part.file, part.mimetype || 'application/octet-stream')
            .catch(async (error: unknown) => {
              await this.store.delete(key).catch(() => undefined);
              throw error;
            })
            .finally(unwatch);
          file = { key, filename, contentType: info.contentType, size: info.size };
          if (part.file.truncated) throw new GatewayError('payload_too_large', 'The uploaded file is too large.', 'file');
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
      return file;
    } catch (error) {
      if (file) void this.store.delete(file.key).catch(() => undefined);
      if (error instanceof GatewayError) throw error;
      const parserError = cutShort ?? (isParserError(error) ? (error as Error) : undefined);
      if (parserError) throw GatewayError.invalid(`The multipart/form-data body could not be read: ${parserError.message}.`, 'file');
      throw error;
    }
  }
}

/** Errors raised by the multipart parser itself (as opposed to storage) carry a 4xx status or a busboy message. */
function isParserError(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number') return status >= 400 && status < 500;
  return error instanceof Error && /multipart|unexpected end of form|malformed part header|boundary/i.test(error.message);
}
