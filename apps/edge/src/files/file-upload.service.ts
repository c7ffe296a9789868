import { FILE_KEY_PREFIX, FilePurpose, GatewayError, newFileId, parseOrThrow, type FileCreatePayload } from '@gateway/contracts';
import { objectKey, safeContentType, type ObjectStore } from '@gateway/storage';
import type { MultipartFile } from '@fastify/multipart';
import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { EDGE_ENV } from '../config/edge-env.token';
import type { EdgeEnv } from '../config/edge-env';
import { callerOf } from '../relay/tenant-call';
import { failWithConnection, onCutShort, FormCounter, multipartLimitsOf, parserLimits, type MultipartLimits } from '../routing/multipart-form';
import { dropRestOfBody } from '../routing/refused-body';
import type { RouteRequest } from '../routing/route-request';
import { EDGE_FILES_ENV, FILES_OBJECT_STORE, type EdgeFilesEnv } from './files-env';

type Part = MultipartFile | { type: 'field'; fieldname: string; value: unknown; valueTruncated?: boolean; fieldnameTruncated?: boolean };
type MultipartRequest = {
  isMultipart(): boolean;
  parts(options?: { limits?: ReturnType<typeof parserLimits>; fileHwm?: number }): AsyncIterableIterator<Part>;
};

/**
 * Bytes the parser buffers in a file part before it pauses the socket: at the default (16 KiB, a quarter
 * of one socket read) every chunk stopped the socket until storage took it; 1 MiB keeps the next chunks
 * coming while one is written (the storage drivers buffer as much on their side).
 */
const PART_BUFFER_BYTES = 1024 * 1024;

/** Room for the multipart boundaries, part headers and the purpose field around the file's bytes. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

interface StoredUpload {
  key: string;
  filename: string;
  contentType: string;
  bytes: number;
}

/**
 * Streams a multipart upload from the socket into object storage under a key derived from a fresh file
 * id, and returns what the files service needs to record it. The bytes are never held whole: the file
 * part is piped to the store as it arrives, and a part over FILES_MAX_BYTES stops at the limit (413).
 */
@Injectable()
export class FileUploadService {
  private readonly limits: MultipartLimits;

  constructor(
    @Inject(FILES_OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(EDGE_FILES_ENV) private readonly env: EdgeFilesEnv,
    @Inject(EDGE_ENV) edgeEnv: EdgeEnv,
  ) {
    this.limits = multipartLimitsOf(edgeEnv);
  }

  async receive(request: RouteRequest): Promise<{ payload: FileCreatePayload; discard: () => Promise<void> }> {
    const raw = request.raw as unknown as MultipartRequest;
    if (typeof raw.isMultipart !== 'function' || !raw.isMultipart()) {
      throw GatewayError.invalid('This route takes multipart/form-data with a file and a purpose.', 'file');
    }
    // A body declared larger than the limit (and the form's few other fields) is refused before it is read.
    const declared = Number(request.raw.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.env.FILES_MAX_BYTES + FORM_OVERHEAD_BYTES) throw this.tooLarge();
    const fileId = newFileId();
    const key = objectKey(FILE_KEY_PREFIX, request.key.tenantId, fileId);
    const discard = () => this.store.delete(key).catch(() => undefined);
    const fields: Record<string, string> = {};
    let upload: StoredUpload | undefined;
    try {
      upload = await this.readParts(raw, request.raw.raw, key, fields);
      if (!upload) throw GatewayError.invalid("Missing required parameter: 'file'.", 'file');
      if (fields.purpose === undefined) throw GatewayError.invalid("Missing required parameter: 'purpose'.", 'purpose');
      const purpose = parseOrThrow(FilePurpose, fields.purpose, 'purpose');
      const payload: FileCreatePayload = {
        ...callerOf(request),
        fileId,
        objectKey: key,
        filename: upload.filename,
        purpose,
        contentType: upload.contentType,
        bytes: upload.bytes,
      };
      return { payload, discard };
    } catch (error) {
      dropRestOfBody(request.raw.raw);
      await discard();
      throw error;
    }
  }

  /**
   * Reads the form: the first `file` part streams into storage; string fields are collected. Every part
   * is counted against the form's limits first, and the file's stream fails if the connection goes.
   */
  private async readParts(raw: MultipartRequest, incoming: IncomingMessage, key: string, fields: Record<string, string>): Promise<StoredUpload | undefined> {
    let upload: StoredUpload | undefined;
    let cutShort: Error | undefined;
    const counter = new FormCounter(this.limits, incoming);
    try {
      const limits = parserLimits(this.limits, { fileSize: this.env.FILES_MAX_BYTES, files: 1 });
      for await (const part of counter.read(raw.parts({ limits, fileHwm: PART_BUFFER_BYTES }))) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file' || upload) {
            part.file.resume();
            counter.take(part);
            continue;
          }
          counter.take(part);
          onCutShort(part.file, (error) => (cutShort ??= error));
          const filename = (part.filename || 'file').slice(0, 1024);
          const unwatch = failWithConnection(incoming, part.file);
          const info = await this.store.put(key, part.file, safeContentType(part.mimetype)).finally(unwatch);
          if (part.file.truncated) throw this.tooLarge();
          upload = { key, filename, contentType: info.contentType, bytes: info.size };
        } else {
          counter.take(part);
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        }
      }
      return upload;
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw this.tooLarge();
      const parserError = cutShort ?? (isParserError(error) ? (error as Error) : undefined);
      if (parserError) throw GatewayError.invalid(`The multipart/form-data body could not be read: ${parserError.message}.`, 'file');
      throw error;
    }
  }

  private tooLarge(): GatewayError {
    return new GatewayError('payload_too_large', `The file is larger than the ${this.env.FILES_MAX_BYTES} bytes this gateway accepts.`, 'file');
  }
}

/** Errors raised by the multipart parser itself (as opposed to storage) carry a 4xx status or a busboy message. */
function isParserError(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number') return status >= 400 && status < 500;
  return error instanceof Error && /multipart|unexpected end of form|malformed part header|boundary/i.test(error.message);
}
